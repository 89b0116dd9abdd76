// Which store errors mean "the database cannot be written right now", as opposed to a bug or bad data:
// SQLite's SQLITE_FULL (the disk is full, or the database reached max_page_count) and SQLITE_IOERR_*
// (the write did not reach the disk, e.g. ENOSPC while growing a file). The request was fine and the
// same write may succeed later, so callers answer 503 with Retry-After and keep what is stored.

/** Seconds a client is asked to wait before trying again while storage is unavailable. */
export const STORAGE_RETRY_AFTER_SEC = 60

/** SQLite's code (e.g. SQLITE_FULL, SQLITE_IOERR_WRITE) when `err` says storage is unavailable; else undefined. */
export function storageFailureCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  return code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') ? code : undefined
}

/** What users are told: the error of an HTTP answer and of the log line. */
export function storageFailureMessage(code: string): string {
  return code === 'SQLITE_FULL'
    ? 'the server cannot store data: its disk is full; try again once space is freed'
    : `the server cannot store data: writing its database failed (${code}); try again later`
}
