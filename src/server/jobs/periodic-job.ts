// A job run on a timer again and again that nothing it throws can escape: an exception thrown from a
// timer callback is uncaught and ends the process (issue 12: on a full disk the heartbeat watchdog took
// the server down). A failed run is logged once per kind of failure, handed to `onError` (the storage
// health counts it), and simply tried again after the interval; one line says when it works again.
import { RepeatedFailureLog, type Logger } from '../log'
import type { JobLease } from '../store/job-lease'

/** Where a job's failures go, and for a job that must run once per database, the lease it runs under. */
export interface JobReporting {
  log: Logger
  onError?: (err: unknown) => void
  /** Without it the job runs in every process; with it, a pass runs only while the lease is held. */
  lease?: JobLease
}

export interface PeriodicJobOptions extends JobReporting {
  /** Names the job in log lines. */
  name: string
  /** From the end of a run to the next one, unless the run asks for another delay. */
  intervalMs: number
  /** One run; may return the delay before the next (a job that works in slices and pauses between them). */
  run: () => number | void
}

export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined
  private running = false
  private readonly failures: RepeatedFailureLog

  constructor(private readonly options: PeriodicJobOptions) {
    this.failures = new RepeatedFailureLog(options.log, options.name)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.schedule(this.options.intervalMs)
  }

  stop(): void {
    this.running = false
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** One run now, its failure handled as on the timer; returns the delay before the next run. */
  runOnce(): number {
    const { intervalMs, lease } = this.options
    if (lease && !lease.held()) return intervalMs
    try {
      const next = this.options.run()
      this.failures.succeeded()
      return next ?? intervalMs
    } catch (err) {
      this.failures.failed(err, `tried again every ${intervalMs} ms`)
      this.options.onError?.(err)
      return intervalMs
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return
    this.timer = setTimeout(() => this.schedule(this.runOnce()), delayMs)
    this.timer.unref()
  }
}
