// What the HTTP thread (ingest-thread.ts) and the ingest thread (ingest-worker.ts) send each other.
import type { LiveChange } from '../../shared/live'
import type { MessageLimits } from '../monit/message-limits'
import type { CollectOutcome, CollectRequest } from './collect-message'

export interface IngestWorkerData {
  /** The store's location: a SQLite file or a PostgreSQL URL. */
  database: string
  keyFile: string
  /** On PostgreSQL in the built server: the connection thread's script (sync-connection.ts connectionWorkerScript). */
  connectionWorkerScript?: string
  /** Bounds each message's parse: past them it is refused (413) without being stored. Default: defaultMessageLimits. */
  limits?: MessageLimits
}

export interface CollectMessage {
  type: 'collect'
  id: number
  request: CollectRequest
}
export type ToIngestThread = CollectMessage | { type: 'close' }
/** Outcomes of a batch stored together, and the live changes of its messages, to publish before answering. */
export type FromIngestThread = { ready: true } | { outcomes: { id: number; outcome: CollectOutcome }[]; changes: LiveChange[] }
