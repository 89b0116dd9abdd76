// Statements of the HTTP thread that PostgreSQL answered slowly (issue 29): that thread serves everything
// else meanwhile, so a database slowing down is said once in the log, and once when it is over, and shown
// in /metrics. Lock waits and silences past the stall time are given up and counted by StorageHealth.
import type { Logger } from '../log'

/** A statement answered after this long is slow (a sort at 10,000 hosts takes a tenth of it). */
export const SLOW_STATEMENT_MS = 1_000
/** Without a slow statement for this long, the slowness is over. */
const QUIET_MS = 30_000
/** How often the end of a slowness is looked for. */
const CHECK_EVERY_MS = 5_000

export class DatabaseWaits {
  private slowSinceMs: number | undefined
  private lastSlowMs = 0
  private count = 0
  /** Looks for the end, while statements are slow. */
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly log: Logger,
    private readonly now = () => Date.now()
  ) {}

  /** Slow statements since the server started. */
  get slowStatements(): number {
    return this.count
  }

  /** Whether a statement was slow in the last QUIET_MS. */
  get slow(): boolean {
    return this.slowSinceMs !== undefined
  }

  /** A statement took `ms` (at least SLOW_STATEMENT_MS). */
  waited = (ms: number): void => {
    this.count++
    this.lastSlowMs = this.now()
    if (this.slowSinceMs !== undefined) return
    this.slowSinceMs = this.lastSlowMs
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS)
    this.timer.unref()
    this.log.warn(
      `database: a statement took ${(ms / 1000).toFixed(1)} s (more than ${SLOW_STATEMENT_MS / 1000} s): requests wait on it meanwhile; said again once statements answer in time for ${QUIET_MS / 1000} s`
    )
  }

  /** Says when the slowness is over. */
  check(): void {
    if (this.slowSinceMs === undefined || this.now() - this.lastSlowMs < QUIET_MS) return
    const lasted = Math.round((this.lastSlowMs - this.slowSinceMs) / 1000)
    this.slowSinceMs = undefined
    this.close()
    this.log.info(`database: statements answer in time again (slow for ${lasted} s, ${this.count} slow statements since start)`)
  }

  close(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }
}
