// The cluster-wide job lease on PostgreSQL: a session-level advisory lock held on a connection of its
// own, so it lives exactly as long as that connection. When the holding process dies, PostgreSQL ends its
// session and frees the lock at once; another instance takes it at its next try.
// The connection is an asynchronous `pg` client on the event loop, looked after on a timer of its own
// (issue 29): a job asks only whether the lease is held, as last found, so no job waits on the database
// to know it may run — a lock, a slow database or a black hole holds the next look, never the event loop.
import type pg from 'pg'
import type { JobLease } from '../job-lease'

/** pg_try_advisory_lock key of the jobs (any constant shared by every instance; not the migrations'). */
const JOB_LOCK = 7_240_017_002
/** A held lease is confirmed on its connection this often: a lost connection means a lost lock. */
const CONFIRM_EVERY_MS = 1000
/** Without it, the lease is tried this often: a holder that died is replaced within about this. */
const TAKE_EVERY_MS = 250
/** A connection attempt or a look not answered within this is given up (a host that drops packets). */
const ANSWER_WITHIN_MS = 5000
const APPLICATION_NAME = 'overseer job lease'

/** An advisory lock's bigint key is split into classid (high 32 bits) and objid (low 32 bits) in pg_locks. */
const HOLDS_LOCK = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
  AND pid = pg_backend_pid() AND ((classid::bigint << 32) | objid::bigint) = $1) AS mine`

export class PostgresJobLease implements JobLease {
  private client: pg.Client | undefined
  private holding = false
  private closed = false
  private looking: Promise<boolean> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  /** Said once until the lease is taken again: every try fails, and a long outage must not flood the log. */
  private toldUnreachable = false

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void
  ) {
    this.schedule(0)
  }

  held(): boolean {
    return this.holding
  }

  /** Takes or confirms the lease now (one look at a time); resolves with whether it is held. */
  refresh(): Promise<boolean> {
    return (this.looking ??= this.look().finally(() => (this.looking = undefined)))
  }

  close(): void {
    this.closed = true
    this.holding = false
    clearTimeout(this.timer)
    this.drop()
  }

  private schedule(delayMs: number): void {
    if (this.closed) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      void this.refresh().then((held) => this.schedule(held ? CONFIRM_EVERY_MS : TAKE_EVERY_MS))
    }, delayMs)
    this.timer.unref()
  }

  private async look(): Promise<boolean> {
    try {
      const client = await this.connected()
      if (this.holding) {
        // The lock lives with the session: whether the session answering now is one that holds it.
        const { rows } = await client.query<{ mine: boolean }>(HOLDS_LOCK, [JOB_LOCK])
        if (!rows[0].mine) this.lose('job lease lost: its PostgreSQL session ended; tried again every 0.25 s')
      } else {
        const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [JOB_LOCK])
        if (rows[0].taken && !this.closed) {
          this.holding = true
          this.toldUnreachable = false
          this.log(`job lease taken: this instance runs the watchdog, rollup and alert delivery (process ${process.pid})`)
        }
      }
    } catch (err) {
      this.drop()
      const why = (err as Error).message
      if (this.holding) this.lose(`job lease lost: its connection failed (${why}); tried again every 0.25 s`)
      else if (!this.toldUnreachable) {
        this.toldUnreachable = true
        this.log(`job lease: PostgreSQL unreachable (${why}); tried again every 0.25 s`)
      }
    }
    return this.holding
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client
    // Loaded here rather than with the module: a server on SQLite never needs `pg`.
    const { Client } = (await import('pg')).default
    const client = new Client({
      connectionString: this.url,
      application_name: APPLICATION_NAME,
      connectionTimeoutMillis: ANSWER_WITHIN_MS,
      query_timeout: ANSWER_WITHIN_MS
    })
    // A socket lost between looks: the next look finds it out and connects again.
    client.on('error', () => this.drop(client))
    await client.connect().catch((err: unknown) => {
      void client.end().catch(() => {})
      throw err
    })
    if (this.closed) {
      void client.end().catch(() => {})
      throw new Error('the lease is closed')
    }
    this.client = client
    return client
  }

  /** Ends the connection (and the lock with its session), without waiting on a database that may not answer. */
  private drop(client = this.client): void {
    if (!client) return
    if (this.client === client) this.client = undefined
    void client.end().catch(() => {})
  }

  /**
   * Not sure of the lock any more. A session that still holds it (a look that only timed out) is ended
   * with its connection, so the lock is freed for whichever instance takes it next.
   */
  private lose(line: string): void {
    this.holding = false
    this.toldUnreachable = true
    this.log(line)
  }
}
