// A bucket summarises the samples of one interval: count, min, max and sum. Sums and counts merge
// exactly in any order (addExact), so a late or out-of-order sample changes a rolled-up bucket exactly
// as if it had come on time; the average is sum / count, computed when read.
import { mod } from '../domain/history-levels'
import { addExact, decimalsOf, powerOf10 } from './decimals'

export interface Bucket {
  /** Start of the interval, unix seconds */
  time: number
  count: number
  min: number
  max: number
  sum: number
}

export function sampleBucket(time: number, value: number): Bucket {
  return { time, count: 1, min: value, max: value, sum: value }
}

/** Both buckets' samples in one bucket starting at `time`. */
export function mergeBucket(time: number, a: Bucket, b: Bucket): Bucket {
  return {
    time,
    count: a.count + b.count,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    sum: addExact(a.sum, b.sum)
  }
}

/** A bucket being filled: its sum kept as an integer on the finest decimal grid seen (exact), else as a double. */
interface Accumulator {
  time: number
  count: number
  min: number
  max: number
  /** sum × 10^scale, exact; or the plain sum when scale is -1 */
  scaled: number
  scale: number
}

/**
 * Accumulates samples and buckets into intervals of `width` seconds aligned on the unix epoch (the
 * interval of t starts at t - t mod width), whatever their own width: finer buckets nest in coarser
 * ones. Sums are exact decimal sums (see addExact), in any order.
 */
export class BucketGrid {
  private readonly byTime = new Map<number, Accumulator>()

  constructor(readonly width: number) {}

  add(b: Bucket): void {
    this.accumulate(b.time, b.count, b.min, b.max, b.sum)
  }

  addSample(time: number, value: number): void {
    this.accumulate(time, 1, value, value, value)
  }

  /** The buckets in time order. */
  sorted(): Bucket[] {
    const out: Bucket[] = []
    for (const a of this.byTime.values()) {
      out.push({ time: a.time, count: a.count, min: a.min, max: a.max, sum: a.scale < 0 ? a.scaled : a.scaled / powerOf10(a.scale) })
    }
    return out.sort((x, y) => x.time - y.time)
  }

  private accumulate(time: number, count: number, min: number, max: number, sum: number): void {
    const start = time - mod(time, this.width)
    let acc = this.byTime.get(start)
    if (!acc) {
      acc = { time: start, count: 0, min, max, scaled: 0, scale: 0 }
      this.byTime.set(start, acc)
    }
    acc.count += count
    if (min < acc.min) acc.min = min
    if (max > acc.max) acc.max = max
    if (acc.scale < 0) {
      acc.scaled += sum
      return
    }
    const k = decimalsOf(sum)
    if (k > acc.scale) {
      acc.scaled *= powerOf10(k - acc.scale)
      acc.scale = k
    }
    const next = k < 0 ? Number.NaN : acc.scaled + Math.round(sum * powerOf10(acc.scale))
    if (Number.isSafeInteger(next)) {
      acc.scaled = next
    } else {
      // Not a short decimal, or too large to stay exact: a plain double sum from here on.
      acc.scaled = acc.scaled / powerOf10(acc.scale) + sum
      acc.scale = -1
    }
  }
}

/** The union of two time-sorted bucket lists, merging buckets of equal start. */
export function mergeBucketLists(a: readonly Bucket[], b: readonly Bucket[]): Bucket[] {
  const out: Bucket[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i].time < b[j].time)) out.push(a[i++])
    else if (i >= a.length || b[j].time < a[i].time) out.push(b[j++])
    else {
      out.push(mergeBucket(a[i].time, a[i], b[j]))
      i++
      j++
    }
  }
  return out
}
