/// <reference types="electron-vite/node" />
// The jobs' statements on a thread of their own (jobs-worker.ts), for PostgreSQL: the history rollup's
// slices, the heartbeat watchdog's passes, the session sweep, the retention batches and the forecast
// slices. There every statement is a round trip, and one held by a lock or a slow database would hold
// the event loop with it. The thread starts with the first run and
// again after it ended (a store that cannot open fails that run: its job tries again after its interval).
// Runs are answered in the order asked; one waiting on the database delays the next, never the event loop.
import { once } from 'node:events'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { workerScriptFromSource } from '../worker-from-source'
import type { FromJobsThread, JobRequest, JobResults, JobsThreadData, ToJobsThread } from './jobs-thread-messages'

/** How long closing waits for a run in flight (a statement waiting on the database) before ending the thread. */
const CLOSE_WAIT_MS = 2000

interface Pending {
  resolve: (result: JobResults[JobRequest['job']]) => void
  reject: (err: Error) => void
}

export class JobsThread {
  private worker: Promise<Worker> | undefined
  /** The thread started last, while it runs. */
  private current: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1

  constructor(private readonly data: JobsThreadData) {}

  /** One rollup slice at `now` (unix seconds) of at most about `budgetMs`; resolves true when work remains. */
  rollupSlice(now: number, budgetMs: number): Promise<boolean> {
    return this.run({ job: 'rollup', now, budgetMs }) as Promise<boolean>
  }

  /** One watchdog pass (see JobRequest); resolves with the live changes to publish. */
  watchdogPass(pass: Omit<Extract<JobRequest, { job: 'watchdog' }>, 'job'>): Promise<JobResults['watchdog']> {
    return this.run({ job: 'watchdog', ...pass }) as Promise<JobResults['watchdog']>
  }

  /** One session sweep at `nowSec`; resolves with how many sessions it ended. */
  sessionSweep(nowSec: number): Promise<number> {
    return this.run({ job: 'session-sweep', nowSec }) as Promise<number>
  }

  /** One retention batch at `nowSec`; resolves true while a backlog remains. */
  retentionBatch(nowSec: number): Promise<boolean> {
    return this.run({ job: 'retention', nowSec }) as Promise<boolean>
  }

  /** One forecast slice at `now` (unix seconds) of the series after statistic `afterId`. */
  forecastSlice(now: number, afterId: number): Promise<JobResults['forecast']> {
    return this.run({ job: 'forecast', now, afterId }) as Promise<JobResults['forecast']>
  }

  /** Ends the thread once its run in flight is done, or after CLOSE_WAIT_MS. */
  async close(): Promise<void> {
    const starting = this.worker
    this.worker = undefined
    const worker = await starting?.catch(() => undefined)
    if (!worker) return
    const exited = once(worker, 'exit')
    worker.postMessage({ type: 'close' } satisfies ToJobsThread)
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS)
    await exited
    clearTimeout(timer)
  }

  private async run(request: JobRequest): Promise<JobResults[JobRequest['job']]> {
    const worker = await (this.worker ??= this.start())
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      worker.postMessage({ type: 'run', id, request } satisfies ToJobsThread)
    })
  }

  /**
   * The built server ships the thread as its own bundle (`?modulePath`); from sources it is bundled on first use.
   * Resolves once the thread's store is open: until then closing it waits (see jobs-worker.ts's `ready`).
   */
  private async start(): Promise<Worker> {
    const script = __filename.endsWith('.ts')
      ? workerScriptFromSource(join(__dirname, 'jobs-worker.ts'))
      : (await import('./jobs-worker?modulePath')).default
    const worker = new Worker(script, { workerData: { ...this.data, postgresWorker: postgresWorkerScript() } satisfies JobsThreadData })
    // As the jobs' timers: the thread keeps no process alive that has nothing else to do.
    worker.unref()
    this.current = worker
    let opened: () => void = () => {}
    let failedToOpen: (err: Error) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      opened = resolve
      failedToOpen = reject
    })
    worker.on('message', (message: FromJobsThread) => {
      if ('ready' in message) return opened()
      const pending = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (!pending) return
      if ('result' in message) pending.resolve(message.result)
      else pending.reject(Object.assign(new Error(message.error.message), message.error.code ? { code: message.error.code } : {}))
    })
    // Its store failing to open, or a crash: what was in flight fails, and the next run starts a new thread.
    let failure: Error | undefined
    worker.on('error', (err) => (failure = err))
    worker.on('exit', (code) => {
      if (this.current === worker) {
        this.current = undefined
        this.worker = undefined
      }
      const err = failure ?? new Error(`the jobs' thread exited with code ${code}`)
      failedToOpen(err)
      for (const { reject } of this.pending.values()) reject(err)
      this.pending.clear()
    })
    await ready
    return worker
  }
}
