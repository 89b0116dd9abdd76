// The samples of one poll of one host, packed in one blob for the `history_raw` row the collector
// writes per message (one row, whatever the number of statistics). Per sample, as varints:
//   statistic id − previous id (zigzag), then zigzag(mantissa) × 8 + scale for a value that is
//   mantissa × 10^-scale with scale ≤ 6, or 7 followed by a float64 for any other value.
import { ByteReader, ByteWriter, MAX_EXACT, zigzag } from './bytes'
import { decimalsOf, MAX_SCALE, powerOf10 } from './decimals'

const FLOAT_TAG = MAX_SCALE + 1
const TAG_SPACE = 8

export interface RawSample {
  statisticId: number
  value: number
}

/** Collects one message's samples; reused across messages (the collector's hot path). */
export class RawSampleWriter {
  private readonly out = new ByteWriter(2048)
  private prevId = 0
  private count = 0

  reset(): void {
    this.out.reset()
    this.prevId = 0
    this.count = 0
  }

  /** Adds a sample; values that are not finite numbers are not history and are skipped. */
  add(statisticId: number, value: number): void {
    if (!Number.isFinite(value)) return
    this.out.svarint(statisticId - this.prevId)
    this.prevId = statisticId
    this.count++
    const k = decimalsOf(value)
    const mantissa = k < 0 ? 0 : Math.round(value * powerOf10(k))
    if (k >= 0 && Math.abs(mantissa) <= MAX_EXACT / TAG_SPACE) {
      this.out.uvarint(zigzag(mantissa) * TAG_SPACE + k)
    } else {
      this.out.uvarint(FLOAT_TAG)
      this.out.float64(value)
    }
  }

  /** The packed samples, or undefined when there are none. */
  finish(): Buffer | undefined {
    return this.count === 0 ? undefined : this.out.toBuffer()
  }
}

export function decodeRawSamples(blob: Uint8Array, each: (statisticId: number, value: number) => void): void {
  const r = new ByteReader(blob)
  let id = 0
  while (!r.done) {
    id += r.svarint()
    const tag = r.uvarint()
    if (tag === FLOAT_TAG) {
      each(id, r.float64())
      continue
    }
    const k = tag % TAG_SPACE
    if (k > MAX_SCALE) throw new Error(`unknown raw sample tag ${tag}`)
    const z = (tag - k) / TAG_SPACE
    const mantissa = z % 2 === 0 ? z / 2 : -(z + 1) / 2
    each(id, mantissa / powerOf10(k))
  }
}

export function rawSamples(blob: Uint8Array): RawSample[] {
  const out: RawSample[] = []
  decodeRawSamples(blob, (statisticId, value) => out.push({ statisticId, value }))
  return out
}
