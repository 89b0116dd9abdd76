/// <reference types="electron-vite/node" />
// The history rollup's slices on a thread of their own (history-rollup-worker.ts), for PostgreSQL: there
// every statement is a round trip, and one held by a lock or a slow database would hold the event loop
// with it. The thread starts with the first slice and again after it ended (a store that cannot open
// fails that slice: the job tries again after its interval).
import { once } from 'node:events'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { workerScriptFromSource } from '../worker-from-source'
import type { FromRollupThread, RollupWorkerData, ToRollupThread } from './history-rollup-messages'

/** How long closing waits for a slice in flight (a statement waiting on the database) before ending the thread. */
const CLOSE_WAIT_MS = 2000

interface Pending {
  resolve: (more: boolean) => void
  reject: (err: Error) => void
}

export class RollupThread {
  private worker: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1

  constructor(private readonly data: RollupWorkerData) {}

  /** One slice at `now` (unix seconds) of at most about `budgetMs`; resolves true when work remains. */
  async slice(now: number, budgetMs: number): Promise<boolean> {
    const worker = (this.worker ??= await newWorker(this.data, (w) => this.watch(w)))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      worker.postMessage({ type: 'slice', id, now, budgetMs } satisfies ToRollupThread)
    })
  }

  /** Ends the thread once its slice in flight is done, or after CLOSE_WAIT_MS. */
  async close(): Promise<void> {
    const worker = this.worker
    if (!worker) return
    const exited = once(worker, 'exit')
    worker.postMessage({ type: 'close' } satisfies ToRollupThread)
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS)
    await exited
    clearTimeout(timer)
  }

  private watch(worker: Worker): void {
    worker.on('message', (message: FromRollupThread) => {
      const pending = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (!pending) return
      if ('more' in message) pending.resolve(message.more)
      else pending.reject(Object.assign(new Error(message.error.message), message.error.code ? { code: message.error.code } : {}))
    })
    // Its store failing to open, or a crash: what was in flight fails, and the next slice starts a new thread.
    let failure: Error | undefined
    worker.on('error', (err) => (failure = err))
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined
      const err = failure ?? new Error(`the history rollup thread exited with code ${code}`)
      for (const { reject } of this.pending.values()) reject(err)
      this.pending.clear()
    })
  }
}

/** The built server ships the thread as its own bundle (`?modulePath`); from sources it is bundled on first use. */
async function newWorker(data: RollupWorkerData, watch: (worker: Worker) => void): Promise<Worker> {
  const script = __filename.endsWith('.ts')
    ? workerScriptFromSource(join(__dirname, 'history-rollup-worker.ts'))
    : (await import('./history-rollup-worker?modulePath')).default
  const worker = new Worker(script, { workerData: { ...data, postgresWorker: postgresWorkerScript() } satisfies RollupWorkerData })
  // As the job's timer: the thread keeps no process alive that has nothing else to do.
  worker.unref()
  watch(worker)
  return worker
}
