// What the HTTP thread (ingest-thread.ts) and the ingest thread (ingest-worker.ts) send each other.
import type { LiveChange } from '../../shared/live'
import type { MessageLimits } from '../monit/message-limits'
import type { CollectOutcome, CollectRequest } from './collect-message'

export interface IngestWorkerData {
  /** The store's location: a SQLite file or a PostgreSQL URL. */
  database: string
  keyFile: string
  /** The PostgreSQL connection thread's script in the built server (set by IngestThread: see sync-connection.ts). */
  postgresWorker?: string
  /** Bounds each message's parse: past them it is refused (413) without being stored. Default: defaultMessageLimits. */
  limits?: MessageLimits
  /** The ingest connection's SQLite page cache; absent: the store's default. */
  pageCacheMib?: number
  /** PostgreSQL: the longest a statement waits for a lock (store.ts); absent: no limit but the statement's. */
  lockTimeoutMs?: number
}

/** The thread's first message, once its store is open: what it applied, for the server's start log. */
export interface IngestReady {
  ready: true
  /** Undefined on PostgreSQL. */
  pageCacheMib: number | undefined
}

export interface CollectMessage {
  type: 'collect'
  id: number
  request: CollectRequest
}
export type ToIngestThread = CollectMessage | { type: 'close' }
/** Outcomes of a batch stored together, and the live changes of its messages, to publish before answering. */
export type FromIngestThread = IngestReady | { outcomes: { id: number; outcome: CollectOutcome }[]; changes: LiveChange[] }
