// Runs the history rollup (src/server/history/rollup.ts) in the background: a pass every few seconds,
// made of slices of at most `sliceMs` of work, each followed by a pause of `pauseRatio` × its length.
// The pause caps the job's share of the CPU (on SQLite) or of the database's time (on PostgreSQL) at
// 1 / (1 + pauseRatio), 10 % by default, while it catches up, and a steady hour's roll of 100 hosts still
// takes well under a minute. On SQLite the slices run on the event loop, which serves HTTP and the
// collector between them; on PostgreSQL they run on the jobs' thread (jobs-thread.ts), since a
// statement there is a round trip that a lock or a slow database can hold for seconds.
import { PeriodicJob, type JobReporting } from './periodic-job'

/** Runs rollup slices: the Rollup itself (on this thread), or the jobs' thread for it. */
export interface RollupSlices {
  /** One slice at `now` (unix seconds) of at most about `budgetMs`; true when work remains. */
  slice(now: number, budgetMs: number): boolean | Promise<boolean>
}

export interface HistoryRollupOptions {
  /** Between passes when there is nothing to do */
  intervalMs?: number
  /** Longest slice of work before yielding */
  sliceMs?: number
  /** Pause after a slice, as a multiple of its length */
  pauseRatio?: number
}

export class HistoryRollupJob {
  private readonly job: PeriodicJob<number | Promise<number>>
  private readonly intervalMs: number
  private readonly sliceMs: number
  private readonly pauseRatio: number

  /** A slice that throws (a full disk) is tried again on the next pass: see periodic-job.ts. */
  constructor(
    private readonly rollup: RollupSlices,
    options: HistoryRollupOptions,
    reporting: JobReporting
  ) {
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

  /** One slice; returns the delay before the next: a pause after work, the interval once none is left. */
  private runSlice(): number | Promise<number> {
    const started = performance.now()
    // A slice that waited long on the database (a lock) pauses no longer than between idle passes.
    const next = (more: boolean) =>
      more ? Math.min(this.intervalMs, Math.max(1, (performance.now() - started) * this.pauseRatio)) : this.intervalMs
    const more = this.rollup.slice(Math.floor(Date.now() / 1000), this.sliceMs)
    return typeof more === 'boolean' ? next(more) : more.then(next)
  }
}
