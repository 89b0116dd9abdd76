// The import thread's entry: runs importMMonit (tools/import-mmonit) with its own source and store
// connections, so that reading M/Monit and writing batches never hold up the server's event loop.
// Progress goes to the server thread after every batch; a cancel asked for there is seen here through
// shared memory (this thread never yields to its message queue while it imports) and stops the import
// between batches: every batch is its own transaction and a re-run picks up where it stopped.
import { parentPort, workerData } from 'node:worker_threads'
import { usePostgresWorker } from '../store/postgres/sync-connection'
import { HISTORY_STEPS, IMPORT_STEPS, ImportError, importMMonit, TargetNotEmptyError } from '../tools/import-mmonit/import-database'
import { SourceError } from '../store/mmonit-source/source'
import type { FromImportThread, ImportFailureKind, ImportWorkerData } from './mmonit-import-messages'

class Cancelled extends Error {}

const port = parentPort!
// Held open until the server thread ends it on the result: a thread ending by itself can have its exit
// seen before its last message.
port.ref()
const data = workerData as ImportWorkerData
usePostgresWorker(data.postgresWorker)
const cancel = new Int32Array(data.cancel)
const send = (message: FromImportThread) => port.postMessage(message)
const stopIfCancelled = () => {
  if (Atomics.load(cancel, 0) === 1) throw new Cancelled('the import was cancelled: what was imported stays, a new run picks up the rest')
}
const stepCount = IMPORT_STEPS.filter((step) => data.history || !HISTORY_STEPS.includes(step)).length
let index = 0

function kindOf(e: unknown): ImportFailureKind {
  if (e instanceof Cancelled) return 'cancelled'
  if (e instanceof TargetNotEmptyError) return 'not-empty'
  if (e instanceof ImportError) return 'import'
  if (e instanceof SourceError) return 'source'
  return 'other'
}

importMMonit({
  ...data,
  progress: {
    table: (name, expected) => {
      stopIfCancelled()
      send({ type: 'step', name, index: index++, count: stepCount, expected })
    },
    rows: (rows) => {
      send({ type: 'rows', rows })
      stopIfCancelled()
    },
    tableDone: () => {}
  }
}).then(
  (report) => send({ type: 'done', report }),
  (e: unknown) => send({ type: 'failed', kind: kindOf(e), message: e instanceof Error ? e.message : String(e) })
)
