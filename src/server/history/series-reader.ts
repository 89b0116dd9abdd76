// Reads history series for charts: the buckets of a level over a span, aggregated to a given width.
// A level holds complete blocks only up to where the rollup stands; the rest of the span is read from
// the next finer level (down to raw rows), so the newest data is always in the chart.
import type { HistoryStore } from '../store/history'
import { forEachBucket } from './block-codec'
import type { Bucket } from './buckets'
import { blockStartsOverlapping, finerLevel, mod, timeOfSlot, type Level } from '../domain/history-levels'
import { decodeRawSamples } from './raw-samples'

/**
 * A chart's points: buckets of `width` seconds aligned on the epoch. Sums are plain doubles here (a
 * displayed average needs no exact decimal sum), which keeps a year of hour buckets cheap to read.
 */
class PointGrid {
  private readonly byTime = new Map<number, Bucket>()

  constructor(private readonly width: number) {}

  add(time: number, count: number, min: number, max: number, sum: number): void {
    const start = time - mod(time, this.width)
    const b = this.byTime.get(start)
    if (!b) {
      this.byTime.set(start, { time: start, count, min, max, sum })
      return
    }
    b.count += count
    if (min < b.min) b.min = min
    if (max > b.max) b.max = max
    b.sum += sum
  }

  sorted(): Bucket[] {
    return [...this.byTime.values()].sort((a, b) => a.time - b.time)
  }
}

/** Buckets of `width` seconds (epoch-aligned) per statistic id, from `level` and finer, for [from, to). */
export function readSeries(
  history: HistoryStore,
  hostId: number,
  ids: readonly number[],
  level: Level,
  from: number,
  to: number,
  width: number
): Map<number, Bucket[]> {
  if (ids.length === 0) return new Map()
  const grids = new Map(ids.map((id) => [id, new PointGrid(width)]))
  const minId = Math.min(...ids)
  const maxId = Math.max(...ids)
  const rolled = history.settings.progress().rolledUntil

  const collect = (lvl: Level, start: number, end: number): void => {
    if (start >= end) return
    if (lvl === 'raw') {
      for (const row of history.raw.ofHost(hostId, start, end)) {
        decodeRawSamples(row.samples, (id, value) => grids.get(id)?.add(row.time, 1, value, value, value))
      }
      return
    }
    const storedEnd = Math.min(end, rolled[lvl] ?? start)
    const starts = storedEnd > start ? blockStartsOverlapping(lvl, start, storedEnd) : []
    for (const row of history.blocks.rangeAt(lvl, starts, minId, maxId)) {
      const grid = grids.get(row.statistic_id)
      if (!grid) continue
      forEachBucket(
        row.buckets,
        (slot) => timeOfSlot(lvl, row.start, slot),
        (time, count, min, max, sum) => {
          if (time >= start && time < storedEnd) grid.add(time, count, min, max, sum)
        }
      )
    }
    collect(finerLevel[lvl], Math.max(start, storedEnd), end)
  }
  collect(level, from, to)
  return new Map([...grids].map(([id, grid]) => [id, grid.sorted()]))
}
