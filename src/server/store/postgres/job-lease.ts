// The cluster-wide job lease on PostgreSQL: a session-level advisory lock held on a connection of its
// own, so it lives exactly as long as that connection. When the holding process dies, PostgreSQL ends its
// session and frees the lock at once; another instance takes it at its next try (every job pass).
// The connection is kept through failures (issue 29): its thread reconnects by itself, failing at once
// between attempts, where a fresh connection at every pass would make each pass wait out its attempt
// (5 s for a host that drops packets) on the HTTP thread.
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
    /** As the store's connection on the same thread (store.ts: DEFAULT_STALL_MS). */
    private readonly stallMs?: number,
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

  private connect(): SyncConnection {
    const connection = new SyncConnection(this.url, { statementTimeoutMs: 5000 })
    if (this.stallMs) connection.guard(this.stallMs)
    return connection
  }

  private take(): boolean {
    try {
      this.connection ??= this.connect()
      const { rows } = this.connection.query('SELECT pg_try_advisory_lock($1) AS taken', [JOB_LOCK])
      this.holding = rows[0].taken === true
    } catch (err) {
      if (!this.toldUnreachable) this.log(`job lease: PostgreSQL unreachable (${(err as Error).message}); tried again every pass`)
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
      this.lose(`job lease lost: its connection failed (${(err as Error).message}); tried again every pass`)
      return false
    }
    if (!mine) this.lose('job lease lost: its PostgreSQL session ended; tried again every pass')
    else this.confirmedAt = this.now()
    return mine
  }

  /**
   * Not sure of the lock any more. A session that still holds it (a confirmation that only timed out)
   * takes it again at the next try: session advisory locks are re-entrant.
   */
  private lose(line: string): void {
    this.holding = false
    this.toldUnreachable = true
    this.log(line)
  }
}
