// Reads history series for charts: the buckets of a level over a span, aggregated to a given width.
// A level holds complete blocks only up to where the rollup stands; the rest of the span is read from
// the next finer level (down to raw rows), so the newest data is always in the chart.
import type { HistoryStore } from '../store/history'
import { decodeBlock } from './block-codec'
import { BucketGrid, type Bucket } from './buckets'
import { blockStartsOverlapping, finerLevel, timeOfSlot, type Level } from './levels'
import { decodeRawSamples } from './raw-samples'

/** Buckets of `width` seconds (epoch-aligned) per statistic id, from `level` and finer, for [from, to). */
export function readSeries(
  history: HistoryStore, hostId: number, ids: readonly number[], level: Level, from: number, to: number, width: number
): Map<number, Bucket[]> {
  const grids = new Map(ids.map((id) => [id, new BucketGrid(width)]))
  if (ids.length === 0) return new Map()
  const minId = Math.min(...ids)
  const maxId = Math.max(...ids)
  const rolled = history.settings.progress().rolledUntil

  const collect = (lvl: Level, start: number, end: number): void => {
    if (start >= end) return
    if (lvl === 'raw') {
      for (const row of history.raw.ofHost(hostId, start, end)) {
        decodeRawSamples(row.samples, (id, value) => grids.get(id)?.addSample(row.time, value))
      }
      return
    }
    const storedEnd = Math.min(end, rolled[lvl] ?? start)
    for (const blockStart of storedEnd > start ? blockStartsOverlapping(lvl, start, storedEnd) : []) {
      for (const row of history.blocks.range(lvl, blockStart, minId, maxId)) {
        const grid = grids.get(row.statistic_id)
        if (!grid) continue
        for (const b of decodeBlock(row.buckets, (slot) => timeOfSlot(lvl, blockStart, slot))) {
          if (b.time >= start && b.time < storedEnd) grid.add(b)
        }
      }
    }
    collect(finerLevel[lvl], Math.max(start, storedEnd), end)
  }
  collect(level, from, to)
  return new Map([...grids].map(([id, grid]) => [id, grid.sorted()]))
}
