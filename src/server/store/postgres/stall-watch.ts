// Tells a slow statement from a stuck one, for a connection whose caller must not wait long (the HTTP
// thread: issue 29, a lock held for 40 s or a network black hole froze every request). A statement that
// has not answered after the stall time is looked at through a second connection: one waiting on a lock
// is cancelled and given up; one whose database does not answer the second connection either is given
// up; one that runs (reads, sorts, writes) goes on. While the lock holders' transactions last, statements
// are looked at much sooner (those that do not need the locked tables run as usual); while the database
// is silent, statements fail at once.
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import type { BridgeError } from './bridge-messages'

/** How often the trouble is looked at again. */
const RECHECK_MS = 250
/** How long a statement runs before it is looked at while a lock it may wait on is held. */
const LOCKED_LOOK_MS = 20
/** A connection PostgreSQL has not completed by then is taken for a silence. */
const CONNECT_TIMEOUT_MS = 5_000

/** What a look at a statement found. */
export type StatementLook = { kind: 'running' } | { kind: 'locked'; holders: number[] } | { kind: 'silent' }

/** A session holding a lock another waits for, as pg_stat_activity shows it: its transaction is over once xact_start moves. */
interface LockHolder {
  pid: number
  transactionStart: string | null
}

export class StallWatch {
  private monitor: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined
  /** Why statements fail at once, and what ends it. */
  private trouble: { error: BridgeError; holders?: LockHolder[] } | undefined
  private recheck: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly url: string,
    readonly stallMs: number
  ) {}

  /** The error statements fail with at once, while the database is silent. */
  get failing(): BridgeError | undefined {
    return this.trouble && !this.trouble.holders ? this.trouble.error : undefined
  }

  /** How long a statement runs before it is looked at. */
  get lookAfterMs(): number {
    return this.trouble?.holders ? LOCKED_LOOK_MS : this.stallMs
  }

  /** What the statement of the session `pid` is doing, answered within the stall time. */
  async look(pid: number): Promise<StatementLook> {
    const rows = await this.ask<{ wait: string | null; holders: number[] }>(
      'SELECT wait_event_type AS wait, pg_blocking_pids(pid) AS holders FROM pg_stat_activity WHERE pid = $1',
      [pid]
    )
    if (!rows) return { kind: 'silent' }
    const row = rows[0]
    return row?.wait === 'Lock' && row.holders.length > 0 ? { kind: 'locked', holders: row.holders } : { kind: 'running' }
  }

  /** Cancels the stuck statement of `pid` (when the database answers); the error to answer it with. */
  async giveUp(pid: number, look: Exclude<StatementLook, { kind: 'running' }>): Promise<BridgeError> {
    const seconds = (this.stallMs / 1000).toFixed(2)
    if (look.kind === 'locked') {
      // Cancelled rather than left waiting: a write outside a transaction would otherwise still be done
      // once the lock is released, though its caller was told it failed.
      await this.ask('SELECT pg_cancel_backend($1)', [pid])
      const holders =
        (await this.ask<LockHolder>('SELECT pid, xact_start::text AS "transactionStart" FROM pg_stat_activity WHERE pid = ANY($1)', [
          look.holders
        ])) ?? look.holders.map((holder) => ({ pid: holder, transactionStart: null }))
      const error = {
        code: '55P03',
        message: `PostgreSQL: a statement waited more than ${seconds} s on a lock held by another session (process ${look.holders.join(', ')}); given up`
      }
      this.fail(error, holders)
      return error
    }
    const error = { code: 'ETIMEDOUT', message: `PostgreSQL did not answer within ${seconds} s, nor a second connection` }
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

  /** Ends the failing when the lock holders' transactions are over, or the database answers again. */
  private async checkAgain(): Promise<void> {
    const trouble = this.trouble
    if (!trouble) return
    let over: boolean
    if (trouble.holders) {
      const now = await this.ask<LockHolder>(
        'SELECT pid, xact_start::text AS "transactionStart" FROM pg_stat_activity WHERE pid = ANY($1)',
        [trouble.holders.map((h) => h.pid)]
      )
      over =
        now !== undefined && !trouble.holders.some((h) => now.some((n) => n.pid === h.pid && n.transactionStart === h.transactionStart))
    } else over = (await this.ask('SELECT 1', [], CONNECT_TIMEOUT_MS)) !== undefined
    if (this.trouble !== trouble) return
    if (over) this.trouble = undefined
    else this.recheck = setTimeout(() => void this.checkAgain(), RECHECK_MS)
  }

  /** The rows, or undefined when the database did not answer within `withinMs` (the monitor is then dropped). */
  private async ask<R>(text: string, values: unknown[] = [], withinMs = this.stallMs): Promise<R[] | undefined> {
    try {
      const answered = await within(
        this.connected().then((c) => c.query(text, values)),
        withinMs
      )
      if (answered) return answered.rows as R[]
    } catch {
      // An error of the monitor's own: taken for no answer.
    }
    this.dropMonitor()
    return undefined
  }

  private connected(): Promise<pg.Client> {
    if (this.monitor) return Promise.resolve(this.monitor)
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        statement_timeout: CONNECT_TIMEOUT_MS
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

/** The promise's value, or undefined when it takes longer than `ms` (it goes on; its failure is then nobody's). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  promise.catch(() => {})
  const timer = new AbortController()
  try {
    return await Promise.race([promise, sleep(ms, undefined, { signal: timer.signal })])
  } finally {
    timer.abort()
  }
}
