// Ends the sessions idle past the timeout. Resuming one ends it too, but sessions nobody comes back with
// (scripts that never log out, abandoned login pages) would otherwise stay in the table for good.
import type { SessionService } from '../auth/sessions'
import { PeriodicJob, type JobReporting } from './periodic-job'

export const SESSION_SWEEP_INTERVAL_MS = 60_000

export class SessionSweepJob {
  private readonly job: PeriodicJob

  constructor(sessions: SessionService, reporting: JobReporting, intervalMs = SESSION_SWEEP_INTERVAL_MS) {
    this.job = new PeriodicJob({ ...reporting, name: 'session sweep', intervalMs, run: () => void sessions.sweepExpired() })
  }

  start(): void {
    this.job.start()
  }

  stop(): void {
    this.job.stop()
  }

  /** One sweep now, its failure logged as on the timer (tests). */
  runOnce(): void {
    this.job.runOnce()
  }
}
