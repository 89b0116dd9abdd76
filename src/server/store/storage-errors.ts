// Which store errors mean "the database cannot be written right now", as opposed to a bug or bad data.
// SQLite: SQLITE_FULL (the disk is full, or the database reached max_page_count) and SQLITE_IOERR_* (the
// write did not reach the disk, e.g. ENOSPC while growing a file). PostgreSQL: the database is out of
// reach (stopped, restarting, failing over, the network: its connection errors and SQLSTATE class 08,
// 57P01–57P03), its disk or another resource ran out (class 53), it is a read-only standby (25006), or it
// is busy: a statement gave up waiting for another session's lock (55P03, lock_timeout: store.ts) or ran
// past its statement_timeout (57014).
// The request was fine and the same write may succeed later, so callers answer 503 with Retry-After and
// keep what is stored.
import { PostgresError } from './postgres/sync-connection'

/** Seconds a client is asked to wait before trying again while storage is unavailable. */
export const STORAGE_RETRY_AFTER_SEC = 60
/** The same while the database is busy: a lock is usually held for seconds. */
export const STORAGE_BUSY_RETRY_AFTER_SEC = 5

/** What the connection to PostgreSQL fails with when its server cannot be reached (Node's socket errors; from other sockets they say nothing of the database). */
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE'
])
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123])$/
const POSTGRES_OUT_OF_RESOURCES = /^53...$/
const POSTGRES_READ_ONLY = '25006'
const POSTGRES_DISK_FULL = '53100'
const POSTGRES_LOCK_NOT_AVAILABLE = '55P03'
const POSTGRES_STATEMENT_TIMEOUT = '57014'

/** The code (SQLite's, PostgreSQL's SQLSTATE, or the socket's) when `err` says storage is unavailable; else undefined. */
export function storageFailureCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  const unavailable =
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    (err instanceof PostgresError && UNREACHABLE_SOCKET_CODES.has(code)) ||
    UNREACHABLE_SQLSTATE.test(code) ||
    POSTGRES_OUT_OF_RESOURCES.test(code) ||
    code === POSTGRES_READ_ONLY ||
    databaseBusy(code)
  return unavailable ? code : undefined
}

/** Whether the database answered but could not serve in time (a lock held elsewhere, a statement too slow), for `code` from storageFailureCode. */
export function databaseBusy(code: string): boolean {
  return code === POSTGRES_LOCK_NOT_AVAILABLE || code === POSTGRES_STATEMENT_TIMEOUT
}

/** Whether PostgreSQL failed a transaction for its conflict with another's (40P01 deadlock, 40001 serialization failure): run again, it may succeed. */
export function transactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

/** Seconds to ask a client to wait before trying again, for `code` from storageFailureCode. */
export function storageRetryAfterSec(code: string): number {
  return databaseBusy(code) ? STORAGE_BUSY_RETRY_AFTER_SEC : STORAGE_RETRY_AFTER_SEC
}

/** Whether the database could not be reached at all (nothing can be read either), for `code` from storageFailureCode. */
export function databaseUnreachable(code: string): boolean {
  return UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code)
}

/** What users are told: the error of an HTTP answer and of the log line. */
export function storageFailureMessage(code: string): string {
  if (code === 'SQLITE_FULL' || code === POSTGRES_DISK_FULL)
    return 'the server cannot store data: its disk is full; try again once space is freed'
  if (databaseUnreachable(code)) return `the server cannot reach its database (${code}); try again later`
  if (code === POSTGRES_LOCK_NOT_AVAILABLE)
    return `the server cannot serve its data now: its database is busy, a lock is held by another session (${code}); try again shortly`
  if (code === POSTGRES_STATEMENT_TIMEOUT)
    return `the server cannot serve its data now: its database did not answer in time (${code}); try again shortly`
  if (code === POSTGRES_READ_ONLY)
    return `the server cannot store data: its database is read-only (${code}), as a standby is; try again later`
  if (POSTGRES_OUT_OF_RESOURCES.test(code))
    return `the server cannot store data: its database is out of resources (${code}); try again later`
  return `the server cannot store data: writing its database failed (${code}); try again later`
}
