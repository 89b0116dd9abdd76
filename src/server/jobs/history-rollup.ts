// Runs the history rollup (src/server/history/rollup.ts) in the background: a pass every few seconds,
// made of slices of at most `sliceMs` of work, each followed by a pause of `pauseRatio` × its length.
// Between slices the event loop serves HTTP and the collector, and the pause caps the job's share of
// the CPU at 1 / (1 + pauseRatio), 10 % by default, while it catches up: ingestion never waits long, and
// a steady hour's roll of 100 hosts still takes well under a minute.
import { Rollup } from '../history/rollup'
import type { Store } from '../store/store'

export interface HistoryRollupOptions {
  /** Between passes when there is nothing to do */
  intervalMs?: number
  /** Longest slice of work before yielding */
  sliceMs?: number
  /** Pause after a slice, as a multiple of its length */
  pauseRatio?: number
  /** Called with a message when a step throws; the job tries again on the next pass. */
  onError?: (message: string) => void
}

export class HistoryRollupJob {
  readonly rollup: Rollup
  private timer: NodeJS.Timeout | undefined
  private running = false
  private readonly intervalMs: number
  private readonly sliceMs: number
  private readonly pauseRatio: number

  constructor(store: Store, private readonly options: HistoryRollupOptions = {}) {
    this.rollup = new Rollup(store.history, store.sql)
    this.intervalMs = options.intervalMs ?? 5000
    this.sliceMs = options.sliceMs ?? 10
    this.pauseRatio = options.pauseRatio ?? 9
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.schedule(this.intervalMs)
  }

  stop(): void {
    this.running = false
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** One slice: steps until the time budget is spent or nothing is left; true when work remains. */
  slice(nowMs = Date.now()): boolean {
    const started = performance.now()
    const now = Math.floor(nowMs / 1000)
    do {
      if (this.rollup.step(now) === 'idle') return false
    } while (performance.now() - started < this.sliceMs)
    return true
  }

  private schedule(delayMs: number): void {
    if (!this.running) return
    this.timer = setTimeout(() => this.runSlice(), delayMs)
    this.timer.unref()
  }

  private runSlice(): void {
    const started = performance.now()
    let more = false
    try {
      more = this.slice()
    } catch (err) {
      this.options.onError?.(`history rollup failed: ${err instanceof Error ? err.message : String(err)}`)
    }
    const spent = performance.now() - started
    this.schedule(more ? Math.max(1, spent * this.pauseRatio) : this.intervalMs)
  }
}
