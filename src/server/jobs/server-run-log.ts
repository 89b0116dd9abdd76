// Records this server's run (issue 12): its start, an alive stamp every ALIVE_STAMP_MS while it runs and
// its clean stop, so that the next start knows when the server was not running even after kill -9 or a
// power cut. Bookkeeping only: it runs as a PeriodicJob, so a failed write (a full disk) is logged once
// and tried again, and never stops the server. It also records since when this server's collector could
// not store (issue 29), for the instance holding the job lease: its watchdog holds its judgement while
// another instance holds reports (reportsHeldElsewhere), as it does for its own collector. Its writes
// go to the store on SQLite, to the jobs' thread on PostgreSQL (a slow write holds no request: issue 29).
import { ALIVE_STAMP_MS } from '../domain/server-runs'
import type { ServerRunRepository } from '../store/server-runs'
import { storageFailureCode } from '../store/storage-errors'
import type { CollectorStorage } from './heartbeat-watchdog'
import type { RepositoryCalls, ThreadMethod } from './jobs-thread-messages'
import { PeriodicJob, type JobReporting } from './periodic-job'

/** How often the collector's state is looked at: a change is written at once, nothing otherwise. */
const REPORTS_HELD_CHECK_MS = 1_000
/** Another run counts while its alive stamp is this recent (three stamps: one may fail). */
const ALIVE_WITHIN_SEC = (3 * ALIVE_STAMP_MS) / 1000

/**
 * Whether a running instance other than run `runId` holds reports its collector could not store: a reason,
 * as CollectorStorage's `unavailable`, or undefined. Asked by the watchdog's pass, on its own thread.
 */
export function reportsHeldElsewhere(runs: ServerRunRepository, runId: number | undefined, nowMs: number): string | undefined {
  if (runId === undefined) return undefined
  return runs.othersHoldReports(runId, seconds(nowMs) - ALIVE_WITHIN_SEC) ? 'another instance holds reports' : undefined
}

/** Where the run's writes go: the store's repository, or the jobs' thread's (jobs-thread.ts). */
export type RunRecords = RepositoryCalls<ServerRunRepository, ThreadMethod<'serverRuns'>>

export class ServerRunLog {
  private job: PeriodicJob<Promise<void>> | undefined
  private heldJob: PeriodicJob<Promise<void>> | undefined
  private runId: number | undefined
  private startedSec = 0
  /** Since when this run's collector holds reports, as last written (null: it stores). */
  private heldWritten: number | null = null

  constructor(
    private readonly runs: RunRecords,
    private readonly reporting: JobReporting,
    private readonly now: () => number = Date.now,
    /** This server's collector; absent: never holding reports. */
    private readonly collector?: CollectorStorage
  ) {}

  /** This run's id once its start is stored; undefined before, and after the stop. */
  get id(): number | undefined {
    return this.runId
  }

  /** Records the start as of now (its first run, at once), then stamps alive every `intervalMs`. */
  start(intervalMs = ALIVE_STAMP_MS): void {
    if (this.job) return
    this.startedSec = seconds(this.now())
    this.job = new PeriodicJob({ ...this.reporting, name: 'server run log', intervalMs, run: () => this.stampAlive() })
    this.job.start(0)
    if (!this.collector) return
    this.heldJob = new PeriodicJob({
      ...this.reporting,
      name: 'reports held',
      intervalMs: REPORTS_HELD_CHECK_MS,
      run: () => this.writeHeld()
    })
    this.heldJob.start()
  }

  /** Writes since when this run's collector holds reports, when that changed. */
  private async writeHeld(): Promise<void> {
    if (this.runId === undefined) return
    const holding = this.collector!.unavailable !== undefined
    if (holding === (this.heldWritten !== null)) return
    const since = holding ? seconds(this.now()) : null
    try {
      await this.runs.reportsHeld(this.runId, since)
      this.heldWritten = since
    } catch (err) {
      // The storage's own log says it once; written at the next check once the database takes it.
      if (storageFailureCode(err) === undefined) throw err
    }
  }

  /** Stamps the run alive; records its start first while that could not be stored yet. */
  private async stampAlive(): Promise<void> {
    this.runId ??= await this.runs.begin(this.startedSec)
    await this.runs.alive(this.runId, seconds(this.now()))
  }

  /** Records a clean stop. */
  async stop(): Promise<void> {
    this.job?.stop()
    this.job = undefined
    this.heldJob?.stop()
    this.heldJob = undefined
    const id = this.runId
    this.runId = undefined
    if (id === undefined) return
    try {
      await this.runs.stop(id, seconds(this.now()))
    } catch (err) {
      // The run then ends at its last alive stamp, as after a crash.
      this.reporting.log.error(`server run log: could not record the clean stop: ${err instanceof Error ? err.message : String(err)}`)
      this.reporting.onError?.(err)
    }
  }
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000)
}
