// Folds M/Monit samples, read in (series, time) order, into our history blocks (domain/history-levels.ts):
// the buckets of the block being filled are kept until the series or the block changes; finished blocks
// wait for the end of the page and are then written over the stored blocks' buckets in the same slots,
// the stored ones read by one query per page. Replacing slots rather than adding to them makes a second
// import of the same samples change nothing, and leaves the slots that only Overseer filled (its own
// agent's reports) as they are.
import { decodeBlock, encodeBlock } from '../../history/block-codec'
import { BucketGrid, type Bucket } from '../../history/buckets'
import { blockStart, bucketSeconds, slotOf, timeOfSlot, type RolledLevel } from '../../domain/history-levels'
import type { BlockRepository } from '../../store/history-blocks'

interface FinishedBlock {
  start: number
  statisticId: number
  buckets: Bucket[]
}

export class BlockFolder {
  private statisticId = -1
  private start = 0
  private grid: BucketGrid
  private finished: FinishedBlock[] = []

  constructor(
    private readonly level: RolledLevel,
    private readonly blocks: BlockRepository
  ) {
    this.grid = new BucketGrid(bucketSeconds[level])
  }

  /** One sample, or one M/Monit average (a bucket of one). Call in (statistic, time) order. */
  add(statisticId: number, time: number, value: number): void {
    const start = blockStart(this.level, time)
    if (statisticId !== this.statisticId || start !== this.start) {
      this.finish()
      this.statisticId = statisticId
      this.start = start
    }
    this.grid.addSample(time, value)
  }

  /** Writes the finished blocks; `all` also the one being filled (at the end of the samples). */
  write(all: boolean): void {
    if (all) this.finish()
    if (this.finished.length === 0) return
    const { level } = this
    const ids = this.finished.map((b) => b.statisticId)
    const starts = [...new Set(this.finished.map((b) => b.start))]
    const stored = new Map(
      this.blocks.rangeAt(level, starts, Math.min(...ids), Math.max(...ids)).map((row) => [`${row.start} ${row.statistic_id}`, row.buckets])
    )
    for (const { start, statisticId, buckets } of this.finished) {
      const blob = stored.get(`${start} ${statisticId}`)
      const merged = blob
        ? replaceSlots(
            decodeBlock(blob, (slot) => timeOfSlot(level, start, slot)),
            buckets
          )
        : buckets
      this.blocks.put(
        level,
        start,
        statisticId,
        encodeBlock(merged, (t) => slotOf(level, start, t))
      )
    }
    this.finished = []
  }

  private finish(): void {
    const buckets = this.grid.sorted()
    if (buckets.length === 0) return
    this.grid = new BucketGrid(bucketSeconds[this.level])
    this.finished.push({ start: this.start, statisticId: this.statisticId, buckets })
  }
}

/** `stored` with every bucket of `incoming` in its slot instead (both time-sorted). */
function replaceSlots(stored: readonly Bucket[], incoming: readonly Bucket[]): Bucket[] {
  const replaced = new Set(incoming.map((b) => b.time))
  return [...stored.filter((b) => !replaced.has(b.time)), ...incoming].sort((a, b) => a.time - b.time)
}
