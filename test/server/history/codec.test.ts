// The packed forms of history: raw samples and blocks of buckets round-trip exactly, stay small, and
// decimal sums merge exactly in any order.
import { describe, expect, it } from 'vitest'
import { decodeBlock, encodeBlock } from '../../../src/server/history/block-codec'
import { ByteReader, ByteWriter } from '../../../src/server/history/bytes'
import { BucketGrid, mergeBucketLists, type Bucket } from '../../../src/server/history/buckets'
import { addExact, decimalsOf } from '../../../src/server/history/decimals'
import { RawSampleWriter, rawSamples } from '../../../src/server/history/raw-samples'
import { mulberry32 } from '../../../bench/support'

const MINUTE_BLOCK = 1_800_000_000 // an hour start
const slotOf = (t: number) => (t - MINUTE_BLOCK) / 60
const timeOf = (slot: number) => MINUTE_BLOCK + slot * 60

function roundTripSamples(samples: [number, number][]): [number, number][] {
  const w = new RawSampleWriter()
  for (const [id, v] of samples) w.add(id, v)
  return rawSamples(w.finish()!).map((s) => [s.statisticId, s.value])
}

describe('varints', () => {
  it('round-trip unsigned values up to 2^53 and signed ones up to 2^51', () => {
    const values = [0, 1, 127, 128, 300, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 2 ** 49, 2 ** 51, Number.MAX_SAFE_INTEGER]
    const w = new ByteWriter(4)
    for (const v of values) {
      w.uvarint(v)
      if (v <= 2 ** 51) {
        w.svarint(-v)
        w.svarint(v)
      }
    }
    const r = new ByteReader(w.toBuffer())
    for (const v of values) {
      expect(r.uvarint()).toBe(v)
      if (v <= 2 ** 51) {
        expect(r.svarint() === -v).toBe(true)
        expect(r.svarint()).toBe(v)
      }
    }
    expect(r.done).toBe(true)
  })

  it('reject a truncated buffer instead of reading past it', () => {
    expect(() => new ByteReader(Uint8Array.of(0x80)).uvarint()).toThrow(/truncated/)
  })
})

describe('decimals', () => {
  it('find the smallest exact scale', () => {
    expect([12, 12.5, 0.004, -3.25, 1234567, 0.123456, 0].map(decimalsOf)).toEqual([0, 1, 3, 2, 0, 6, 0])
    expect(decimalsOf(0.1234567)).toBe(-1)
    expect(decimalsOf(Math.PI)).toBe(-1)
    expect(decimalsOf(1e300)).toBe(-1)
  })

  it('add on the decimal grid, so sums do not drift', () => {
    expect(addExact(0.1, 0.2)).toBe(0.3)
    let sum = 0
    for (let i = 0; i < 1000; i++) sum = addExact(sum, 0.1)
    expect(sum).toBe(100)
    expect(addExact(Math.PI, 1)).toBe(Math.PI + 1)
  })
})

describe('raw samples', () => {
  it('round-trip negative, zero, huge, many-decimal and unordered values exactly', () => {
    const samples: [number, number][] = [
      [5, 12.3],
      [3, -0.5],
      [900, 0],
      [901, 1e15],
      [2, 0.000123],
      [2_000_000, Math.PI],
      [7, -1e300],
      [8, 1234567],
      [9, 2 ** 53]
    ]
    expect(roundTripSamples(samples)).toEqual(samples)
  })

  it('skip NaN and infinities: they are not history', () => {
    const w = new RawSampleWriter()
    w.add(1, Number.NaN)
    w.add(2, Number.POSITIVE_INFINITY)
    expect(w.finish()).toBeUndefined()
    w.add(3, 1.5)
    expect(rawSamples(w.finish()!)).toEqual([{ statisticId: 3, value: 1.5 }])
  })

  it('cost about three bytes per typical sample', () => {
    const w = new RawSampleWriter()
    for (let i = 0; i < 100; i++) w.add(1000 + i, i % 2 === 0 ? 12.3 + i : 0.004)
    expect(w.finish()!.length).toBeLessThanOrEqual(100 * 3.5)
  })
})

describe('blocks', () => {
  const buckets: Bucket[] = [
    { time: timeOf(0), count: 2, min: 1.5, max: 2.5, sum: 4 },
    { time: timeOf(1), count: 2, min: -7.25, max: 0, sum: -7.25 },
    { time: timeOf(5), count: 3, min: 100, max: 100.001, sum: 300.001 },
    { time: timeOf(59), count: 1, min: 1e12, max: 1e12, sum: 1e12 }
  ]

  it('round-trip sparse buckets with any values exactly', () => {
    expect(decodeBlock(encodeBlock(buckets, slotOf), timeOf)).toEqual(buckets)
    const floats: Bucket[] = [{ time: timeOf(3), count: 2, min: Math.PI, max: Math.E * 10, sum: Math.PI + Math.E * 10 }]
    expect(decodeBlock(encodeBlock(floats, slotOf), timeOf)).toEqual(floats)
    const huge: Bucket[] = [{ time: timeOf(0), count: 2, min: 2 ** 52, max: 2 ** 52, sum: 2 ** 53 }]
    expect(decodeBlock(encodeBlock(huge, slotOf), timeOf)).toEqual(huge)
    expect(decodeBlock(encodeBlock([], slotOf), timeOf)).toEqual([])
  })

  it('refuse unsorted buckets', () => {
    expect(() => encodeBlock([buckets[1], buckets[0]], slotOf)).toThrow(/sorted/)
  })

  it('cost about 4–6 bytes per minute bucket of realistic series', () => {
    const random = mulberry32(7)
    const series = {
      cpu: (prev: number) => Math.round(Math.min(100, Math.max(0, prev + (random() - 0.5) * 4)) * 10) / 10,
      memoryKb: (prev: number) => Math.round(prev + (random() - 0.5) * 2000),
      responseS: () => Math.round((0.002 + random() * 0.01) * 1e6) / 1e6
    }
    const sizes: Record<string, number> = {}
    for (const [name, next] of Object.entries(series)) {
      let value = name === 'memoryKb' ? 2_000_000 : 20
      const grid = new BucketGrid(60)
      for (let t = MINUTE_BLOCK; t < MINUTE_BLOCK + 3600; t += 30) grid.addSample(t, (value = next(value)))
      const blob = encodeBlock(grid.sorted(), slotOf)
      expect(decodeBlock(blob, timeOf)).toEqual(grid.sorted())
      sizes[name] = blob.length / 60
    }
    // Measured: printed so a change in the layout shows in the test output.
    console.log(
      `bytes per minute bucket: ${Object.entries(sizes)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')}`
    )
    expect(sizes.cpu).toBeLessThan(4.5)
    expect(sizes.memoryKb).toBeLessThan(6.5)
    expect(sizes.responseS).toBeLessThan(8.5)
  })
})

describe('merging', () => {
  it('gives the same buckets whatever the order of the samples', () => {
    const samples: [number, number][] = [
      [0, 0.1],
      [10, 0.2],
      [61, 5],
      [65, -3.5],
      [125, 7.7],
      [30, 0.3]
    ]
    const inOrder = new BucketGrid(60)
    for (const [t, v] of samples) inOrder.addSample(MINUTE_BLOCK + t, v)
    const reversed = new BucketGrid(60)
    for (const [t, v] of [...samples].reverse()) reversed.addSample(MINUTE_BLOCK + t, v)
    expect(reversed.sorted()).toEqual(inOrder.sorted())
    expect(inOrder.sorted()).toEqual([
      { time: MINUTE_BLOCK, count: 3, min: 0.1, max: 0.3, sum: 0.6 },
      { time: MINUTE_BLOCK + 60, count: 2, min: -3.5, max: 5, sum: 1.5 },
      { time: MINUTE_BLOCK + 120, count: 1, min: 7.7, max: 7.7, sum: 7.7 }
    ])
  })

  it('merges bucket lists: equal starts combine, others interleave', () => {
    const a: Bucket[] = [
      { time: 0, count: 1, min: 1, max: 1, sum: 1 },
      { time: 120, count: 2, min: 2, max: 4, sum: 6 }
    ]
    const b: Bucket[] = [
      { time: 60, count: 1, min: 9, max: 9, sum: 9 },
      { time: 120, count: 1, min: 0.5, max: 0.5, sum: 0.5 }
    ]
    expect(mergeBucketLists(a, b)).toEqual([a[0], b[0], { time: 120, count: 3, min: 0.5, max: 4, sum: 6.5 }])
  })

  it('nests finer buckets into coarser ones across boundaries', () => {
    const hour = new BucketGrid(3600)
    hour.add({ time: MINUTE_BLOCK + 3540, count: 2, min: 1, max: 3, sum: 4 })
    hour.add({ time: MINUTE_BLOCK + 3600, count: 2, min: 10, max: 30, sum: 40 })
    hour.add({ time: MINUTE_BLOCK, count: 1, min: -1, max: -1, sum: -1 })
    expect(hour.sorted()).toEqual([
      { time: MINUTE_BLOCK, count: 3, min: -1, max: 3, sum: 3 },
      { time: MINUTE_BLOCK + 3600, count: 2, min: 10, max: 30, sum: 40 }
    ])
  })
})
