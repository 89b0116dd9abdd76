// A job run on a timer again and again that nothing it throws can escape: an exception thrown from a
// timer callback is uncaught and ends the process (issue 12: on a full disk the heartbeat watchdog took
// the server down). A failed run is logged once per kind of failure, handed to `onError` (the storage
// health counts it), and simply tried again after the interval; one line says when it works again. A
// database busy or out of reach is the storage health's to tell, once for every job and request (issue 29).
import { RepeatedFailureLog, type Logger } from '../log'
import type { JobLease } from '../store/job-lease'
import { databaseBusy, databaseUnreachable } from '../store/storage-errors'

/** Where a job's failures go, and for a job that must run once per database, the lease it runs under. */
export interface JobReporting {
  log: Logger
  /** Told every failure; returns the storage failure's code when it is one the storage health logs. */
  onError?: (err: unknown) => string | undefined | void
  /** Without it the job runs in every process; with it, a pass runs only while the lease is held. */
  lease?: JobLease
}

/** What a run returns: the delay before the next, or nothing for the job's interval. */
type Delay = number | void

export interface PeriodicJobOptions<Run extends Delay | Promise<Delay>> extends JobReporting {
  /** Names the job in log lines. */
  name: string
  /** From the end of a run to the next one, unless the run asks for another delay. */
  intervalMs: number
  /**
   * One run; may return the delay before the next (a job that works in slices and pauses between them).
   * A run on another thread returns a promise: the next is scheduled once it settles.
   */
  run: () => Run
}

export class PeriodicJob<Run extends Delay | Promise<Delay> = Delay> {
  private timer: NodeJS.Timeout | undefined
  private running = false
  private readonly failures: RepeatedFailureLog

  constructor(private readonly options: PeriodicJobOptions<Run>) {
    this.failures = new RepeatedFailureLog(options.log, options.name)
  }

  /** The first run after `firstDelayMs` (the interval by default), then after each run's delay. */
  start(firstDelayMs = this.options.intervalMs): void {
    if (this.running) return
    this.running = true
    this.schedule(firstDelayMs)
  }

  stop(): void {
    this.running = false
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** One run now, its failure handled as on the timer; returns the delay before the next run. */
  runOnce(this: PeriodicJob<Delay>): number {
    return this.attempt() as number
  }

  /** One run now, on this thread or another, its failure handled as on the timer; resolves with the delay before the next. */
  runNow(): Promise<number> {
    return Promise.resolve(this.attempt())
  }

  /** A synchronous run's delay at once, an asynchronous one's once it settles; never throws nor rejects. */
  private attempt(): number | Promise<number> {
    const { intervalMs, lease } = this.options
    if (lease && !lease.held()) return intervalMs
    const failed = (err: unknown) => {
      const code = this.options.onError?.(err)
      const toldElsewhere = typeof code === 'string' && (databaseBusy(code) || databaseUnreachable(code))
      if (!toldElsewhere) this.failures.failed(err, `tried again every ${intervalMs} ms`)
      return intervalMs
    }
    const succeeded = (next: Delay) => {
      this.failures.succeeded()
      return next ?? intervalMs
    }
    try {
      const next = this.options.run()
      return next instanceof Promise ? next.then(succeeded, failed) : succeeded(next)
    } catch (err) {
      return failed(err)
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return
    this.timer = setTimeout(() => {
      const next = this.attempt()
      if (typeof next === 'number') this.schedule(next)
      else void next.then((delay) => this.schedule(delay))
    }, delayMs)
    this.timer.unref()
  }
}
