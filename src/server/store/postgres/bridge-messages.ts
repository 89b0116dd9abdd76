// What a synchronous PostgreSQL connection (sync-connection.ts) and its thread (connection-worker.ts)
// send each other.

export interface ConnectionWorkerData {
  /** Int32Array over it: [0] is 1 once an answer is posted, set back to 0 by the caller. */
  signal: SharedArrayBuffer
}

/** Which database a thread connects to, from its `open` request on: a thread serves one connection after another. */
export interface ConnectionSettings {
  url: string
  /** Milliseconds after which PostgreSQL cancels a statement (statement_timeout). */
  statementTimeoutMs: number
  /** Milliseconds a statement may wait for a lock before PostgreSQL gives up on it (lock_timeout; 0: no limit). */
  lockTimeoutMs: number
}

export interface BridgeQuery {
  text: string
  values: unknown[]
  /** a server-side prepared statement's name */
  name?: string
}

/** Each request's number, echoed by its answer: an answer that comes late is told from the next one's. */
export type BridgeRequest = { id: number } & (
  | ({ type: 'query' } & BridgeQuery)
  /** Statements run in order, stopping at the first error; the answer is the last one's. */
  | { type: 'queries'; queries: BridgeQuery[] }
  /** The connection's settings; its client connects with the first statement. */
  | ({ type: 'open' } & ConnectionSettings)
  /**
   * Statements not answered within `stallMs` are looked at, and given up when stuck (stall-watch.ts);
   * 0: never. Asked once the migrations ran: they may wait on their lock as long as another instance migrates.
   */
  | { type: 'guard'; stallMs: number }
  /** Ends the client; the thread may then be opened again, for another connection. */
  | { type: 'close' }
)

export interface BridgeError {
  message: string
  /** SQLSTATE, e.g. 23505 for a unique violation. */
  code?: string
  detail?: string
}

export type BridgeAnswer = { id: number } & (
  { ok: true; rows: Record<string, unknown>[]; rowCount: number } | { ok: false; error: BridgeError }
)

/** Omit over each member of a union (TypeScript's Omit merges them). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
