// What the server thread (history-rollup-thread.ts) and the rollup thread (history-rollup-worker.ts) send each other.

export interface RollupWorkerData {
  /** The PostgreSQL URL. */
  database: string
  /** The PostgreSQL connection thread's script in the built server (see sync-connection.ts). */
  postgresWorker?: string
  /** The longest a statement waits for a lock (store.ts); absent: no limit but the statement's. */
  lockTimeoutMs?: number
}

export type ToRollupThread = { type: 'slice'; id: number; now: number; budgetMs: number } | { type: 'close' }

/** A slice's outcome: whether work remains, or why it failed (the error's code kept for the storage health). */
export type FromRollupThread = { id: number; more: boolean } | { id: number; error: { message: string; code?: string } }
