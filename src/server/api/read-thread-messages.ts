// What the HTTP thread (read-threads.ts) and a read thread (read-worker.ts) send each other.
import type { ThreadFailure } from '../request-thread'

export interface ReadThreadData {
  /** The PostgreSQL URL. */
  database: string
  /** The PostgreSQL connection thread's script in the built server (see sync-connection.ts). */
  postgresWorker?: string
  lockTimeoutMs?: number
  stallMs?: number
  /** PostgreSQL cancels a read's statement past this: the HTTP thread has answered it 503 by then. */
  statementTimeoutMs: number
  /** A statement answered after this long is reported back as slow (metrics/database-waits.ts). */
  slowMs: number
}

/** Why a read failed: an HttpError keeps its status and headers, a storage error its code. */
export interface ReadFailure extends ThreadFailure {
  http?: { statusCode: number; headers: Record<string, string>; argument?: string }
}

/** Besides the answers (request-thread.ts): a statement that took `slowMs` or more (metrics/database-waits.ts). */
export interface ReadNotice {
  slowMs: number
}
