// Records this server's run (issue 12): its start, an alive stamp every ALIVE_STAMP_MS while it runs and
// its clean stop, so that the next start knows when the server was not running even after kill -9 or a
// power cut. Bookkeeping only: it runs as a PeriodicJob, so a failed write (a full disk) is logged once
// and tried again, and never stops the server.
import { ALIVE_STAMP_MS } from '../domain/server-runs'
import type { ServerRunRepository } from '../store/server-runs'
import type { Store } from '../store/store'
import { PeriodicJob, type JobReporting } from './periodic-job'

export class ServerRunLog {
  private readonly runs: ServerRunRepository
  private job: PeriodicJob | undefined
  private runId: number | undefined
  private startedSec = 0

  constructor(
    store: Store,
    private readonly reporting: JobReporting,
    private readonly now: () => number = Date.now
  ) {
    this.runs = store.serverRuns
  }

  /** Records the start now, then stamps alive every `intervalMs`. */
  start(intervalMs = ALIVE_STAMP_MS): void {
    if (this.job) return
    this.startedSec = seconds(this.now())
    this.job = new PeriodicJob({ ...this.reporting, name: 'server run log', intervalMs, run: () => this.stampAlive() })
    this.job.runOnce()
    this.job.start()
  }

  /** Stamps the run alive; records its start first while that could not be stored yet. */
  private stampAlive(): void {
    this.runId ??= this.runs.begin(this.startedSec)
    this.runs.alive(this.runId, seconds(this.now()))
  }

  /** Records a clean stop. */
  stop(): void {
    this.job?.stop()
    this.job = undefined
    const id = this.runId
    this.runId = undefined
    if (id === undefined) return
    try {
      this.runs.stop(id, seconds(this.now()))
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
