// Whether the database can be written, for /metrics and the log: set by any write that fails for lack
// of storage or of the database itself (store/storage-errors.ts), cleared by the next write that
// succeeds. It lives on the HTTP thread; the ingest thread's failures reach it through the collector's
// outcomes.
import { RepeatedFailureLog, type Logger } from '../log'
import { databaseBusy, databaseUnreachable, storageFailureCode } from '../store/storage-errors'

const CONSEQUENCES =
  'the collector answers 503 so agents keep their events queued, reads go on, and writing resumes by itself once space is freed'
const UNREACHABLE_CONSEQUENCES =
  'the collector and the API answer 503 (agents keep their events queued), and everything resumes by itself once the database answers'
const BUSY_CONSEQUENCES =
  'what needs the locked or slow tables answers 503 (agents keep their events queued), no host is judged silent meanwhile, and everything resumes by itself once the database serves again'

export class StorageHealth {
  private failures = 0
  private failing: string | undefined
  private failedAtMs = 0
  private readonly failureLog: RepeatedFailureLog

  constructor(
    log: Logger,
    /** Its clock: the start of a write whose success is told later is read from it. */
    readonly now = () => Date.now()
  ) {
    this.failureLog = new RepeatedFailureLog(log, 'storage: writing the database')
  }

  /** The code of why the last write failed (store/storage-errors.ts), while no write succeeded since; undefined when writes work. */
  get unavailable(): string | undefined {
    return this.failing
  }

  /** Writes that failed for lack of storage since the server started. */
  get failedWrites(): number {
    return this.failures
  }

  /** Counts and logs `err` (once per kind) when it is a storage failure and returns its code; else undefined. */
  writeFailed(err: unknown): string | undefined {
    const code = storageFailureCode(err)
    if (code === undefined) return undefined
    this.failures++
    this.failing = code
    this.failedAtMs = this.now()
    // An outage shows as several codes (the shutdown's, then refused connections): one line for all of them.
    if (databaseUnreachable(code)) this.failureLog.failed(err, UNREACHABLE_CONSEQUENCES, 'unreachable')
    else if (databaseBusy(code)) this.failureLog.failed(err, BUSY_CONSEQUENCES, 'busy')
    else this.failureLog.failed(err, CONSEQUENCES)
    return code
  }

  /**
   * A write that began at `startedAtMs` worked. One that began before the last failure was told ends
   * nothing: it ran on another connection (the collector's thread, a read thread) that had not met the
   * trouble yet, and its answer may be told late (issue 29: "failed", "works again", "failed" as a black
   * hole began, the HTTP thread held meanwhile by a statement it then gave up).
   */
  writeSucceeded(startedAtMs: number): void {
    if (this.failing === undefined || startedAtMs < this.failedAtMs) return
    this.failing = undefined
    this.failureLog.succeeded()
  }

  /**
   * Runs a write the caller can do without (a session's last-access stamp): undefined when storage refused
   * it. Its success ends a failure of the whole database (a full disk, an outage), not a busy one: a lock
   * is on some tables, and this write may not have needed them.
   */
  bestEffort<T>(write: () => T): T | undefined {
    const startedAtMs = this.now()
    let result: T
    try {
      result = write()
    } catch (err) {
      if (this.writeFailed(err) === undefined) throw err
      return undefined
    }
    if (this.failing === undefined || !databaseBusy(this.failing)) this.writeSucceeded(startedAtMs)
    return result
  }
}
