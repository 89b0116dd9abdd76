/// <reference types="electron-vite/node" />
// The read threads (PostgreSQL, issue 29): the `pureRead` endpoints — the status screens, the reports,
// the lists, the API reads M/Monit clients poll — run on a small pool of threads with their own store
// connections (read-worker.ts), so that a read waiting on the database (a slow plan, a lock, a database
// slowing down) holds one of them and never the HTTP thread, which meanwhile answers /health, the other
// reads and the writes. A read not answered within the read wait is answered 503 "busy" with
// Retry-After (PostgreSQL cancels its statement a second later); reads queue while every thread is
// busy, and past MAX_QUEUED are answered so at once. On SQLite there are none: a statement there waits
// on nothing but the disk, and its synchronous speed is what the console's reads want.
import { join } from 'node:path'
import type { PureReadRequest } from '../http/api'
import { errorOf, RequestThread } from '../request-thread'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { HttpError } from '../web/http-error'
import { workerScriptFromSource } from '../worker-from-source'
import type { ReadFailure, ReadNotice, ReadThreadData } from './read-thread-messages'

/** How long a read may take on its thread, queueing included, before it is answered 503. */
export const DEFAULT_READ_WAIT_MS = 5_000
export const DEFAULT_READ_THREADS = 2
/** Reads waiting for a thread: past this many a read is answered 503 at once (each holds its request's memory). */
export const MAX_QUEUED_READS = 64
/**
 * PostgreSQL cancels a read's statement this long after the HTTP thread answered it 503: the read's own
 * deadline comes first, and the thread is free again soon after.
 */
const CANCEL_AFTER_ANSWER_MS = 1_000

export interface ReadThreadsOptions {
  threads: number
  waitMs: number
  /** A statement of a read thread took this long (metrics/database-waits.ts). */
  onSlow(ms: number): void
}

interface QueuedRead {
  request: PureReadRequest
  resolve(result: unknown): void
  reject(err: Error): void
  /** Answered already (503 at its deadline): its result, when it comes, is dropped. */
  settled: boolean
}

export class ReadThreads {
  private readonly threads: RequestThread<PureReadRequest, ReadFailure>[] = []
  private readonly queue: QueuedRead[] = []
  /** Threads with a read in flight (a thread still starting has one too). */
  private readonly busyThreads = new Set<RequestThread<PureReadRequest, ReadFailure>>()
  private closed = false

  constructor(
    data: Omit<ReadThreadData, 'postgresWorker' | 'statementTimeoutMs'>,
    private readonly options: ReadThreadsOptions
  ) {
    const workerData = {
      ...data,
      statementTimeoutMs: options.waitMs + CANCEL_AFTER_ANSWER_MS,
      postgresWorker: postgresWorkerScript()
    } satisfies ReadThreadData
    for (let i = 0; i < options.threads; i++) {
      this.threads.push(
        new RequestThread<PureReadRequest, ReadFailure>({
          name: 'a read thread',
          // The built server ships the thread as its own bundle (`?modulePath`); from sources it is bundled on first use.
          script: async () =>
            __filename.endsWith('.ts')
              ? workerScriptFromSource(join(__dirname, 'read-worker.ts'))
              : (await import('./read-worker?modulePath')).default,
          workerData,
          toError: readError,
          onNotice: (notice) => options.onSlow((notice as ReadNotice).slowMs)
        })
      )
    }
  }

  /**
   * Starts the first thread now, in the background: the first reads after a start do not wait for it. The
   * others start when a read finds every started one busy.
   */
  warm(): void {
    this.threads[0]?.warm()
  }

  /** The endpoint's answer, as its handler on a read thread returned it; a 503 past the read wait. */
  read(request: PureReadRequest): Promise<unknown> {
    if (this.closed) return Promise.reject(new HttpError(503, 'the server is shutting down', { 'Retry-After': '5' }))
    if (this.queue.length >= MAX_QUEUED_READS) return Promise.reject(this.busy(`${MAX_QUEUED_READS} reads wait for the database already`))
    return new Promise((resolve, reject) => {
      const read: QueuedRead = { request, resolve, reject, settled: false }
      const deadline = setTimeout(() => {
        read.settled = true
        const queued = this.queue.indexOf(read)
        if (queued >= 0) this.queue.splice(queued, 1)
        reject(this.busy(`a read waited more than ${this.options.waitMs / 1000} s`))
      }, this.options.waitMs)
      read.resolve = (result) => {
        clearTimeout(deadline)
        resolve(result)
      }
      read.reject = (err) => {
        clearTimeout(deadline)
        reject(err)
      }
      this.queue.push(read)
      this.dispatch()
    })
  }

  /** Ends the threads once their reads in flight are answered (or after a while: request-thread.ts). */
  async close(): Promise<void> {
    this.closed = true
    for (const read of this.queue.splice(0)) read.reject(new HttpError(503, 'the server is shutting down', { 'Retry-After': '5' }))
    await Promise.all(this.threads.map((t) => t.close()))
  }

  /** Gives queued reads to idle threads: one read at a time per thread, so that a slow one holds only its own. */
  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return
      if (this.busyThreads.has(thread)) continue
      const read = this.queue.shift()!
      this.busyThreads.add(thread)
      const done = () => {
        this.busyThreads.delete(thread)
        this.dispatch()
      }
      thread.run(read.request).then(
        (result) => {
          if (!read.settled) read.resolve(result)
          done()
        },
        (err: Error) => {
          if (!read.settled) read.reject(err)
          done()
        }
      )
    }
  }

  private busy(why: string): HttpError {
    return new HttpError(503, `the server cannot serve its data now: its database is busy, ${why}; try again shortly`, {
      'Retry-After': '5'
    })
  }
}

/** A read thread's failure as the HTTP thread throws it: an HttpError as such, a storage error with its code. */
function readError(failure: ReadFailure): Error {
  if (failure.http) return new HttpError(failure.http.statusCode, failure.message, failure.http.headers, failure.http.argument)
  return errorOf(failure)
}
