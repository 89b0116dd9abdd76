// Records this server's run (issue 12): its start, an alive stamp every ALIVE_STAMP_MS while it runs and
// its clean stop, so that the next start knows when the server was not running even after kill -9 or a
// power cut. Bookkeeping only: a failed write is logged and never stops the server.
import { ALIVE_STAMP_MS } from '../domain/server-runs'
import { ServerRunRepository } from '../store/server-runs'
import type { Store } from '../store/store'

export class ServerRunLog {
  private readonly runs: ServerRunRepository
  private timer: NodeJS.Timeout | undefined
  private runId: number | undefined

  constructor(store: Store, private readonly onError: (message: string) => void) {
    this.runs = new ServerRunRepository(store.db, store.sql)
  }

  /** Records the start at `nowMs`, then stamps alive every `intervalMs`. */
  start(nowMs = Date.now(), intervalMs = ALIVE_STAMP_MS): void {
    if (this.runId !== undefined) return
    this.runId = this.attempt('record the server start', () => this.runs.begin(seconds(nowMs)))
    this.timer = setInterval(() => this.stampAlive(Date.now()), intervalMs)
    this.timer.unref()
  }

  stampAlive(nowMs: number): void {
    const id = this.runId
    if (id !== undefined) this.attempt('stamp the server alive', () => this.runs.alive(id, seconds(nowMs)))
  }

  /** Records a clean stop at `nowMs`. */
  stop(nowMs = Date.now()): void {
    clearInterval(this.timer)
    this.timer = undefined
    const id = this.runId
    if (id !== undefined) this.attempt('record the server stop', () => this.runs.stop(id, seconds(nowMs)))
    this.runId = undefined
  }

  private attempt<T>(what: string, write: () => T): T | undefined {
    try {
      return write()
    } catch (err) {
      this.onError(`could not ${what}: ${err instanceof Error ? err.message : String(err)}`)
      return undefined
    }
  }
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000)
}
