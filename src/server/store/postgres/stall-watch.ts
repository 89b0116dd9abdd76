// Tells a slow statement from a stuck one, for a connection whose caller must not wait long (the HTTP
// thread: issue 29, a lock held for 40 s or a network black hole froze every request). A statement that
// has not answered after the stall time is looked at through a second connection of its own:
// - waiting on a lock held by a session that is not the server's (an administrator's transaction, a
//   VACUUM FULL, a migration run by hand): cancelled and given up. The server's own transactions are
//   short, and waited for as usual (up to the lock timeout).
// - its database silent (the second connection gets no answer either, for SILENCE_MS): given up.
// - anything else (it reads, sorts, writes; the database answered the look, even with an error): waited for.
// While the lock holders' transactions last, statements are looked at sooner; while the database is
// silent, they fail at once.
import pg from 'pg'
import type { BridgeError } from './bridge-messages'

/** Every connection of the server says so to PostgreSQL: a lock held by one of them is the server's own. */
export const APPLICATION_NAME = 'overseer'
/** How often the trouble is looked at again. */
const RECHECK_MS = 250
/** How long a statement runs before it is looked at while a lock it may wait on is held. */
const LOCKED_LOOK_MS = 20
/**
 * How long the second connection may take to answer a look before the database is taken for silent:
 * long enough for a loaded machine (a look is one small query on an open connection).
 */
const SILENCE_MS = 1_000
/** A connection PostgreSQL has not completed by then is given up. */
const CONNECT_TIMEOUT_MS = 5_000

/** What a look at a statement found. */
export type StatementLook = { kind: 'running' } | { kind: 'locked'; holders: number[] } | { kind: 'silent' }

/** A session holding a lock another waits for, as pg_stat_activity shows it: its transaction is over once xact_start moves. */
interface LockHolder {
  pid: number
  transactionStart: string | null
}

/** What the second connection answered: rows, an error of PostgreSQL's own (it answers), or nothing in time. */
type Asked<R> = { rows: R[] } | 'error' | 'silent'

// Holders of the session's lock that are not the server's, and whether it waits on a lock at all.
const LOOK = `SELECT a.wait_event_type = 'Lock' AS locked, ARRAY(SELECT b.pid FROM pg_stat_activity b
  WHERE b.pid = ANY(pg_blocking_pids(a.pid)) AND b.application_name IS DISTINCT FROM $2) AS holders
  FROM pg_stat_activity a WHERE a.pid = $1`
const HOLDERS = 'SELECT pid, xact_start::text AS "transactionStart" FROM pg_stat_activity WHERE pid = ANY($1)'

export class StallWatch {
  private monitor: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined
  /** Why statements fail at once or are looked at sooner, and what ends it. */
  private trouble: { error: BridgeError; holders?: LockHolder[] } | undefined
  private recheck: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly url: string,
    readonly stallMs: number
  ) {
    // Open before it is needed: a look must not wait for a connection.
    this.connected().catch(() => {})
  }

  /** The error statements fail with at once, while the database is silent. */
  get failing(): BridgeError | undefined {
    return this.trouble && !this.trouble.holders ? this.trouble.error : undefined
  }

  /** How long a connection may take to open before the database is taken for silent (a loaded machine takes a while to start a session). */
  get connectWithinMs(): number {
    return this.stallMs + SILENCE_MS
  }

  /** How long a statement runs before it is looked at. */
  get lookAfterMs(): number {
    return this.trouble?.holders ? LOCKED_LOOK_MS : this.stallMs
  }

  /** What the statement of the session `pid` is doing. */
  async look(pid: number): Promise<StatementLook> {
    const asked = await this.ask<{ locked: boolean | null; holders: number[] }>(LOOK, [pid, APPLICATION_NAME], SILENCE_MS)
    if (asked === 'silent') return { kind: 'silent' }
    const row = asked === 'error' ? undefined : asked.rows[0]
    return row?.locked && row.holders.length > 0 ? { kind: 'locked', holders: row.holders } : { kind: 'running' }
  }

  /** Cancels the stuck statement of `pid` (when the database answers); the error to answer it with. */
  async giveUp(pid: number, look: Exclude<StatementLook, { kind: 'running' }>): Promise<BridgeError> {
    if (look.kind === 'locked') {
      // Cancelled rather than left waiting: a write outside a transaction would otherwise still be done
      // once the lock is released, though its caller was told it failed.
      await this.ask('SELECT pg_cancel_backend($1)', [pid], SILENCE_MS)
      const asked = await this.ask<LockHolder>(HOLDERS, [look.holders], SILENCE_MS)
      const holders = typeof asked === 'object' ? asked.rows : look.holders.map((holder) => ({ pid: holder, transactionStart: null }))
      const error = {
        code: '55P03',
        message: `PostgreSQL: a statement waited more than ${seconds(this.stallMs)} s on a lock held by another session (process ${look.holders.join(', ')}); given up`
      }
      this.fail(error, holders)
      return error
    }
    const error = { code: 'ETIMEDOUT', message: `PostgreSQL did not answer within ${seconds(this.stallMs)} s, nor a second connection` }
    this.fail(error)
    return error
  }

  close(): void {
    clearTimeout(this.recheck)
    this.recheck = undefined
    this.trouble = undefined
    this.dropMonitor()
  }

  private fail(error: BridgeError, holders?: LockHolder[]): void {
    this.trouble = { error, holders }
    clearTimeout(this.recheck)
    this.recheck = setTimeout(() => void this.checkAgain(), RECHECK_MS)
  }

  /** Ends the trouble once the lock holders' transactions are over, or the database answers again. */
  private async checkAgain(): Promise<void> {
    const trouble = this.trouble
    if (!trouble) return
    let over: boolean
    if (trouble.holders) {
      const now = await this.ask<LockHolder>(HOLDERS, [trouble.holders.map((h) => h.pid)], CONNECT_TIMEOUT_MS)
      over =
        typeof now === 'object' &&
        !trouble.holders.some((h) => now.rows.some((n) => n.pid === h.pid && n.transactionStart === h.transactionStart))
    } else over = (await this.ask('SELECT 1', [], CONNECT_TIMEOUT_MS)) !== 'silent'
    if (this.trouble !== trouble) return
    if (over) this.trouble = undefined
    else this.recheck = setTimeout(() => void this.checkAgain(), RECHECK_MS)
  }

  private async ask<R>(text: string, values: unknown[], withinMs: number): Promise<Asked<R>> {
    try {
      const answered = await within(
        this.connected().then((c) => c.query(text, values)),
        withinMs
      )
      if (answered) return { rows: answered.rows as R[] }
    } catch (err) {
      // PostgreSQL's own error (too many connections, a cancelled look) is an answer; a socket's is not.
      if (/^[0-9A-Z]{5}$/.test(String((err as { code?: unknown }).code))) return 'error'
    }
    this.dropMonitor()
    return 'silent'
  }

  private connected(): Promise<pg.Client> {
    if (this.monitor) return Promise.resolve(this.monitor)
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        statement_timeout: CONNECT_TIMEOUT_MS,
        application_name: APPLICATION_NAME
      })
      client.on('error', () => {
        if (this.monitor === client) this.monitor = undefined
      })
      try {
        await client.connect()
        this.monitor = client
        return client
      } finally {
        this.connecting = undefined
      }
    })()
    return this.connecting
  }

  private dropMonitor(): void {
    const monitor = this.monitor
    this.monitor = undefined
    monitor?.connection.stream.destroy()
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2)
}

/** The promise's value, or undefined when it takes longer than `ms` (it goes on; its failure is then nobody's). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  // A plain timer: this runs for every statement of a guarded connection (an AbortController's sleep cost 15 %).
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (err: unknown) => {
        clearTimeout(timer)
        reject(err)
      }
    )
  })
}
