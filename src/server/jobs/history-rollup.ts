// Runs the history rollup (src/server/history/rollup.ts) in the background: a pass every few seconds,
// made of slices of at most `sliceMs` of work, each followed by a pause of `pauseRatio` × its length.
// Between slices the event loop serves HTTP and the collector, and the pause caps the job's share of
// the CPU at 1 / (1 + pauseRatio), 10 % by default, while it catches up: ingestion never waits long, and
// a steady hour's roll of 100 hosts still takes well under a minute.
import { Rollup } from '../history/rollup'
import type { Store } from '../store/store'
import { PeriodicJob, type JobReporting } from './periodic-job'

export interface HistoryRollupOptions {
  /** Between passes when there is nothing to do */
  intervalMs?: number
  /** Longest slice of work before yielding */
  sliceMs?: number
  /** Pause after a slice, as a multiple of its length */
  pauseRatio?: number
}

export class HistoryRollupJob {
  readonly rollup: Rollup
  private readonly job: PeriodicJob
  private readonly intervalMs: number
  private readonly sliceMs: number
  private readonly pauseRatio: number

  /** A step that throws (a full disk) is tried again on the next pass: see periodic-job.ts. */
  constructor(store: Store, options: HistoryRollupOptions, reporting: JobReporting) {
    this.rollup = new Rollup(store.history, store.sql)
    this.intervalMs = options.intervalMs ?? 5000
    this.sliceMs = options.sliceMs ?? 10
    this.pauseRatio = options.pauseRatio ?? 9
    this.job = new PeriodicJob({ name: 'history rollup', intervalMs: this.intervalMs, run: () => this.runSlice(), ...reporting })
  }

  start(): void {
    this.job.start()
  }

  stop(): void {
    this.job.stop()
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

  /** One slice; returns the delay before the next. */
  private runSlice(): number {
    const started = performance.now()
    const more = this.slice()
    return more ? Math.max(1, (performance.now() - started) * this.pauseRatio) : this.intervalMs
  }
}
