// Deletes events and audit log rows older than the retention an administrator set (a year by default,
// settings/update `eventretention` and `auditretention`), so that the collector account cannot grow the
// event table without end, nor failed logins the audit log. A batch of each per run keeps each
// transaction short; while a backlog remains the next batch follows a second later. The batches run on
// this thread (SQLite) or on the jobs' thread (PostgreSQL: jobs-thread.ts), given as `prune`.
import type { Store } from '../store/store'
import { PeriodicJob, type JobReporting } from './periodic-job'

export const EVENT_RETENTION_INTERVAL_MS = 3_600_000
const BATCH = 1000
const BACKLOG_PAUSE_MS = 1000

/** One batch of each past its retention at `nowSec`; true while a backlog remains. */
export type RetentionBatch = (nowSec: number) => boolean | Promise<boolean>

/** The batch itself, on `store`'s connection. */
export function pruneExpiredBatch(store: Store, nowSec: number): boolean {
  const events = store.events.pruneBefore(nowSec - store.serverSettings.eventRetentionSec(), BATCH)
  const audit = store.auditLog.pruneBefore(nowSec - store.serverSettings.auditRetentionSec(), BATCH)
  return events === BATCH || audit === BATCH
}

export class EventRetentionJob {
  private readonly job: PeriodicJob<number | undefined | Promise<number | undefined>>

  constructor(prune: RetentionBatch, reporting: JobReporting, now = () => Date.now(), intervalMs = EVENT_RETENTION_INTERVAL_MS) {
    const next = (backlog: boolean) => (backlog ? BACKLOG_PAUSE_MS : undefined)
    const run = () => {
      const backlog = prune(Math.floor(now() / 1000))
      return typeof backlog === 'boolean' ? next(backlog) : backlog.then(next)
    }
    this.job = new PeriodicJob({ ...reporting, name: 'event retention', intervalMs, run })
  }

  start(): void {
    this.job.start()
  }

  stop(): void {
    this.job.stop()
  }

  /** One pass now (tests); the delay before the next. */
  runOnce(): Promise<number> {
    return this.job.runNow()
  }
}
