// Ends the sessions idle past the timeout. Resuming one ends it too, but sessions nobody comes back with
// (scripts that never log out, abandoned login pages) would otherwise stay in the table for good. The sweep
// runs on this thread (SQLite) or on the jobs' thread (PostgreSQL: jobs-thread.ts), given as `sweep`.
import { PeriodicJob, type JobReporting } from './periodic-job'

export const SESSION_SWEEP_INTERVAL_MS = 60_000

/** One sweep at `nowSec`: how many sessions it ended. */
export type SessionSweep = (nowSec: number) => number | Promise<number>

export class SessionSweepJob {
  private readonly job: PeriodicJob<void | Promise<void>>

  constructor(sweep: SessionSweep, reporting: JobReporting, intervalMs = SESSION_SWEEP_INTERVAL_MS, now = () => Date.now()) {
    const run = () => {
      const swept = sweep(Math.floor(now() / 1000))
      return swept instanceof Promise ? swept.then(() => {}) : undefined
    }
    this.job = new PeriodicJob({ ...reporting, name: 'session sweep', intervalMs, run })
  }

  start(): void {
    this.job.start()
  }

  stop(): void {
    this.job.stop()
  }

  /** One sweep now, its failure logged as on the timer (tests). */
  runOnce(): Promise<number> {
    return this.job.runNow()
  }
}
