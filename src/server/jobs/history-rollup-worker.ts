// The rollup thread's entry (PostgreSQL): runs the history rollup's slices with its own store connection,
// so that its statements, a round trip each, and their waits on locks or a slow database never hold up
// the server's event loop. The server thread paces the slices (history-rollup.ts).
import { parentPort, workerData } from 'node:worker_threads'
import { Rollup } from '../history/rollup'
import { usePostgresWorker } from '../store/postgres/sync-connection'
import { Store } from '../store/store'
import type { FromRollupThread, RollupWorkerData, ToRollupThread } from './history-rollup-messages'

const port = parentPort!
const data = workerData as RollupWorkerData
usePostgresWorker(data.postgresWorker)
const store = new Store(data.database, undefined, { lockTimeoutMs: data.lockTimeoutMs })
const rollup = new Rollup(store.history, store.sql)
const send = (message: FromRollupThread) => port.postMessage(message)

port.on('message', (message: ToRollupThread) => {
  if (message.type === 'close') {
    store.close()
    return port.close()
  }
  try {
    send({ id: message.id, more: rollup.slice(message.now, message.budgetMs) })
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e))
    const code = (error as { code?: unknown }).code
    send({ id: message.id, error: { message: error.message, code: typeof code === 'string' ? code : undefined } })
  }
})
