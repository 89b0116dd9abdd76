// The packed form of a block of buckets (one statistic, one level, one block period), the same at every
// level. Layout, all varints:
//   scale        0..6: values are integers × 10^-scale; 7: values are raw float64 (see decimalsOf)
//   n            number of buckets
//   per bucket:  tag = (slots skipped since the previous bucket) × 2 + (count differs from the previous)
//                [count]                       only when it differs
//                min − previous min            zigzag
//                max − min
//                2 × sum − count × (min + max) zigzag: 0 when the samples are spread evenly, e.g. any
//                                              bucket of two samples, so the sum costs one byte
//   (float mode: min, max, sum as float64 after the tag/count instead)
// A steady series of one-decimal values costs about 4–5 bytes per bucket.
import { type Bucket } from './buckets'
import { ByteReader, ByteWriter, MAX_EXACT } from './bytes'
import { decimalsOf, MAX_SCALE, powerOf10 } from './decimals'

const FLOAT_MODE = MAX_SCALE + 1
const writer = new ByteWriter(4096)

/**
 * Encodes time-sorted buckets of one block; bucket i lies in slot (time − start) / width, which
 * `slotOf` computes (months have no fixed width).
 */
export function encodeBlock(buckets: readonly Bucket[], slotOf: (time: number) => number): Buffer {
  const scale = commonScale(buckets)
  writer.reset()
  writer.uvarint(scale)
  writer.uvarint(buckets.length)
  const p = scale === FLOAT_MODE ? 1 : powerOf10(scale)
  let prevSlot = -1
  let prevCount = 0
  let prevMin = 0
  for (const b of buckets) {
    const slot = slotOf(b.time)
    if (slot <= prevSlot) throw new Error('buckets of a block must be sorted and in distinct slots')
    const countChanged = b.count !== prevCount
    writer.uvarint((slot - prevSlot - 1) * 2 + (countChanged ? 1 : 0))
    if (countChanged) writer.uvarint(b.count)
    prevSlot = slot
    prevCount = b.count
    if (scale === FLOAT_MODE) {
      writer.float64(b.min)
      writer.float64(b.max)
      writer.float64(b.sum)
      continue
    }
    const min = Math.round(b.min * p)
    const max = Math.round(b.max * p)
    const sum = Math.round(b.sum * p)
    writer.svarint(min - prevMin)
    writer.uvarint(max - min)
    writer.svarint(2 * sum - b.count * (min + max))
    prevMin = min
  }
  return writer.toBuffer()
}

/** The buckets of a block; `timeOf` maps a slot back to its start time. */
export function decodeBlock(blob: Uint8Array, timeOf: (slot: number) => number): Bucket[] {
  const out: Bucket[] = []
  forEachBucket(blob, timeOf, (time, count, min, max, sum) => out.push({ time, count, min, max, sum }))
  return out
}

/** Visits the buckets of a block in time order without building them: charts read many thousands. */
export function forEachBucket(
  blob: Uint8Array,
  timeOf: (slot: number) => number,
  visit: (time: number, count: number, min: number, max: number, sum: number) => void
): void {
  const r = new ByteReader(blob)
  const scale = r.uvarint()
  const n = r.uvarint()
  if (scale > FLOAT_MODE) throw new Error(`unknown history block scale ${scale}`)
  const p = scale === FLOAT_MODE ? 1 : powerOf10(scale)
  let slot = -1
  let count = 0
  let min = 0
  for (let i = 0; i < n; i++) {
    const tag = r.uvarint()
    slot += Math.floor(tag / 2) + 1
    if (tag % 2 === 1) count = r.uvarint()
    const time = timeOf(slot)
    if (scale === FLOAT_MODE) {
      visit(time, count, r.float64(), r.float64(), r.float64())
      continue
    }
    min += r.svarint()
    const max = min + r.uvarint()
    const sum = (r.svarint() + count * (min + max)) / 2
    visit(time, count, min / p, max / p, sum / p)
  }
}

/** The smallest decimal scale every figure of the block has exactly, or float mode. */
function commonScale(buckets: readonly Bucket[]): number {
  let scale = 0
  for (const b of buckets) {
    for (const v of [b.min, b.max, b.sum]) {
      const k = decimalsOf(v)
      if (k < 0) return FLOAT_MODE
      if (k > scale) scale = k
    }
  }
  const p = powerOf10(scale)
  let prevMin = 0
  for (const b of buckets) {
    const min = Math.round(b.min * p)
    const max = Math.round(b.max * p)
    const sum = Math.round(b.sum * p)
    // Every intermediate the layout stores must stay an exact integer.
    if (Math.abs(min - prevMin) > MAX_EXACT || Math.abs(2 * sum) > MAX_EXACT || Math.abs(b.count * (min + max)) > MAX_EXACT) {
      return FLOAT_MODE
    }
    prevMin = min
  }
  return scale
}
