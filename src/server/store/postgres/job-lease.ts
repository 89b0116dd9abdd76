// The cluster-wide job lease on PostgreSQL: a session-level advisory lock held on a connection of its
// own, so it lives exactly as long as that connection. When the holding process dies, PostgreSQL ends its
// session and frees the lock at once; another instance takes it at its next try (every job pass).
import type { JobLease } from '../job-lease'
import { SyncConnection } from './sync-connection'

/** pg_try_advisory_lock key of the jobs (any constant shared by every instance; not the migrations'). */
const JOB_LOCK = 7_240_017_002
/** A held lease is confirmed on its connection at most this often: a lost connection means a lost lock. */
const CONFIRM_EVERY_MS = 1000

/** An advisory lock's bigint key is split into classid (high 32 bits) and objid (low 32 bits) in pg_locks. */
const HOLDS_LOCK = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
  AND pid = pg_backend_pid() AND ((classid::bigint << 32) | objid::bigint) = $1) AS mine`

export class PostgresJobLease implements JobLease {
  private connection: SyncConnection | undefined
  private holding = false
  private confirmedAt = 0
  /** Said once until the lease is taken again: every pass tries, and a long outage must not flood the log. */
  private toldUnreachable = false

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
    private readonly now = () => Date.now()
  ) {}

  held(): boolean {
    if (this.holding) {
      if (this.now() - this.confirmedAt < CONFIRM_EVERY_MS) return true
      return this.confirm()
    }
    return this.take()
  }

  close(): void {
    this.connection?.close()
    this.connection = undefined
    this.holding = false
  }

  private take(): boolean {
    try {
      this.connection ??= new SyncConnection(this.url, { statementTimeoutMs: 5000 })
      const { rows } = this.connection.query('SELECT pg_try_advisory_lock($1) AS taken', [JOB_LOCK])
      this.holding = rows[0].taken === true
    } catch (err) {
      this.dropConnection(
        this.toldUnreachable ? undefined : `job lease: PostgreSQL unreachable (${(err as Error).message}); tried again every pass`
      )
      this.toldUnreachable = true
      return false
    }
    if (this.holding) {
      this.toldUnreachable = false
      this.confirmedAt = this.now()
      this.log(`job lease taken: this instance runs the watchdog, rollup and alert delivery (process ${process.pid})`)
    }
    return this.holding
  }

  /**
   * The lock lives with the session. The connection thread reconnects after a lost socket, so the
   * question is whether the session answering now is one that holds the lock.
   */
  private confirm(): boolean {
    let mine: boolean
    try {
      mine = this.connection!.query(HOLDS_LOCK, [JOB_LOCK]).rows[0].mine === true
    } catch (err) {
      this.dropConnection(`job lease lost: its connection failed (${(err as Error).message}); tried again every pass`)
      return false
    }
    if (!mine) this.dropConnection('job lease lost: its PostgreSQL session ended; tried again every pass')
    else this.confirmedAt = this.now()
    return mine
  }

  private dropConnection(line: string | undefined): void {
    this.holding = false
    try {
      this.connection?.close()
    } catch {
      // A broken connection may fail to close; it is dropped either way.
    }
    this.connection = undefined
    if (line) this.log(line)
  }
}
