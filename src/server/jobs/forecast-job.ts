// Forecasts every resource series of the fleet (issue 30 §3) every FORECAST_INTERVAL_MS, in slices of
// statistic ids with a pause between them, and stores what it finds for the "running out" list. Under
// the job lease: one instance computes for the fleet. The slices run on this thread (SQLite) or on the
// jobs' thread (PostgreSQL: jobs-thread.ts), given as `slices`.
import { PeriodicJob, type JobReporting } from './periodic-job'

export const FORECAST_INTERVAL_MS = 10 * 60_000
/** The first pass after the start: soon, but after the start's own work. */
const FIRST_PASS_MS = 15_000
/** Between slices of one pass. */
const SLICE_PAUSE_MS = 200

export interface ForecastSlices {
  /** One slice at `now` (unix seconds) of the series after statistic `afterId`. */
  slice(now: number, afterId: number): { lastId: number; done: boolean } | Promise<{ lastId: number; done: boolean }>
}

export class ForecastJob {
  private readonly job: PeriodicJob<number | undefined | Promise<number | undefined>>
  /** Where the pass under way stands: the last statistic id forecast. */
  private afterId = 0

  constructor(
    slices: ForecastSlices,
    reporting: JobReporting,
    private readonly now = () => Date.now(),
    intervalMs = FORECAST_INTERVAL_MS
  ) {
    const next = ({ lastId, done }: { lastId: number; done: boolean }) => {
      this.afterId = done ? 0 : lastId
      return done ? undefined : SLICE_PAUSE_MS
    }
    const run = () => {
      const result = slices.slice(Math.floor(this.now() / 1000), this.afterId)
      return result instanceof Promise ? result.then(next) : next(result)
    }
    this.job = new PeriodicJob({ ...reporting, name: 'forecasts', intervalMs, run })
  }

  start(firstPassMs = FIRST_PASS_MS): void {
    this.job.start(firstPassMs)
  }

  stop(): void {
    this.job.stop()
  }

  /** One slice now (tests); the delay before the next. */
  runOnce(): Promise<number> {
    return this.job.runNow()
  }
}
