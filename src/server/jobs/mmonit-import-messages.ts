// What the server thread (mmonit-import-job.ts) and the import thread (mmonit-import-worker.ts) send each other.
import type { ImportReport, ImportRequest } from '../tools/import-mmonit/import-database'

/** importMMonit's request without its callbacks, and what the thread needs besides. */
export interface ImportWorkerData extends Omit<ImportRequest, 'progress' | 'log' | 'batchRows'> {
  /** The PostgreSQL connection thread's script in the built server (see sync-connection.ts). */
  postgresWorker?: string
  /** One Int32: set to 1 by the server thread to ask the import to stop after its current batch. */
  cancel: SharedArrayBuffer
}

/** What failed, sorted by what the administrator can do about it (the job maps it to an HTTP status). */
export type ImportFailureKind = 'not-empty' | 'import' | 'source' | 'cancelled' | 'other'

export type FromImportThread =
  /** Source open, schema known, target claimed: the steps begin. */
  | { type: 'step'; name: string; index: number; count: number; expected: number }
  | { type: 'rows'; rows: number }
  | { type: 'done'; report: ImportReport }
  | { type: 'failed'; kind: ImportFailureKind; message: string }
