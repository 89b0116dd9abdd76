// Folds M/Monit samples, read in (series, time) order, into our history blocks (domain/history-levels.ts)
// one block at a time: the buckets of the block being filled are kept until the series or the block
// changes, then written over the stored block's buckets in the same slots. Replacing slots rather than
// adding to them makes a second import of the same samples change nothing, and leaves the slots that
// only Overseer filled (its own agent's reports) as they are.
import { decodeBlock, encodeBlock } from '../../history/block-codec'
import { BucketGrid, type Bucket } from '../../history/buckets'
import { blockStart, bucketSeconds, slotOf, timeOfSlot, type RolledLevel } from '../../domain/history-levels'
import type { BlockRepository } from '../../store/history-blocks'

export class BlockFolder {
  private statisticId = -1
  private start = 0
  private grid: BucketGrid

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
      this.flush()
      this.statisticId = statisticId
      this.start = start
    }
    this.grid.addSample(time, value)
  }

  /** Writes the block being filled, if any. */
  flush(): void {
    const incoming = this.grid.sorted()
    if (incoming.length === 0) return
    this.grid = new BucketGrid(bucketSeconds[this.level])
    const { level, start } = this
    const stored = this.blocks.get(level, start, this.statisticId)
    const buckets = stored
      ? replaceSlots(
          decodeBlock(stored, (slot) => timeOfSlot(level, start, slot)),
          incoming
        )
      : incoming
    this.blocks.put(
      level,
      start,
      this.statisticId,
      encodeBlock(buckets, (t) => slotOf(level, start, t))
    )
  }
}

/** `stored` with every bucket of `incoming` in its slot instead (both time-sorted). */
export function replaceSlots(stored: readonly Bucket[], incoming: readonly Bucket[]): Bucket[] {
  const replaced = new Set(incoming.map((b) => b.time))
  return [...stored.filter((b) => !replaced.has(b.time)), ...incoming].sort((a, b) => a.time - b.time)
}
