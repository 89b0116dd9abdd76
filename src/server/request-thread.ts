// A worker thread that answers requests, one after the other, in the order asked (the jobs' thread, the
// read threads): started on the first request and again after it ended; a thread whose start fails, or
// that dies, fails what it had in flight. Its entry posts `{ ready: true }` once it can be closed by
// message (its store is open), then one `{ id, result }` or `{ id, error }` per request; any other
// message is a notice for `onNotice`.
import { once } from 'node:events'
import { Worker, type MessagePort } from 'node:worker_threads'

/** How long closing waits for a request in flight (a statement waiting on the database) before ending the thread. */
const CLOSE_WAIT_MS = 2000

/** What a thread's entry sends. */
export type FromRequestThread<F> = { ready: true } | { id: number; result: unknown } | { id: number; error: F }
/** What it receives. */
export type ToRequestThread<R> = { type: 'run'; id: number; request: R } | { type: 'close' }

/** The failure a thread sends: an error's message and its code (kept for the storage health). */
export interface ThreadFailure {
  message: string
  code?: string
}

interface Pending {
  resolve: (result: unknown) => void
  reject: (err: Error) => void
}

export interface RequestThreadOptions<F extends ThreadFailure> {
  /** The entry's script: a bundle of its TypeScript source, or the built server's. */
  script(): Promise<string>
  workerData: unknown
  /** What a thread that exited unasked is called in the error of what it had in flight. */
  name: string
  /** The error a failure sent by the thread is rethrown as; default an Error with its code. */
  toError?(failure: F): Error
  onNotice?(message: unknown): void
}

export class RequestThread<R, F extends ThreadFailure = ThreadFailure> {
  private worker: Promise<Worker> | undefined
  /** The thread started last, while it runs. */
  private current: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private closed = false

  constructor(private readonly options: RequestThreadOptions<F>) {}

  async run(request: R): Promise<unknown> {
    if (this.closed) throw new Error(`${this.options.name} is closed`)
    const worker = await this.started()
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      worker.postMessage({ type: 'run', id, request } satisfies ToRequestThread<R>)
    })
  }

  /** Starts the thread now, so that the first request does not wait for it; a failed start is tried again by that request. */
  warm(): void {
    if (!this.closed) this.started().catch(() => {})
  }

  /** Ends the thread once its request in flight is answered, or after CLOSE_WAIT_MS. */
  async close(): Promise<void> {
    this.closed = true
    const starting = this.worker
    this.worker = undefined
    const worker = await starting?.catch(() => undefined)
    if (!worker) return
    const exited = once(worker, 'exit')
    worker.postMessage({ type: 'close' } satisfies ToRequestThread<R>)
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS)
    await exited
    clearTimeout(timer)
  }

  /** The running thread, started if needed. A start that failed before the thread ran is tried again next time. */
  private started(): Promise<Worker> {
    return (this.worker ??= this.start().catch((err: unknown) => {
      this.worker = undefined
      throw err
    }))
  }

  /** Resolves once the thread's entry says it is ready: until then closing it waits. */
  private async start(): Promise<Worker> {
    const { options } = this
    const worker = new Worker(await options.script(), { workerData: options.workerData })
    // As the jobs' timers: the thread keeps no process alive that has nothing else to do.
    worker.unref()
    this.current = worker
    let opened: () => void = () => {}
    let failedToOpen: (err: Error) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      opened = resolve
      failedToOpen = reject
    })
    const toError = options.toError ?? errorOf
    worker.on('message', (message: FromRequestThread<F>) => {
      if ('ready' in message) return opened()
      if (!('id' in message)) return options.onNotice?.(message)
      const pending = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (!pending) return
      if ('result' in message) pending.resolve(message.result)
      else pending.reject(toError(message.error))
    })
    // Its store failing to open, or a crash: what was in flight fails, and the next request starts a new thread.
    let failure: Error | undefined
    worker.on('error', (err) => (failure = err))
    worker.on('exit', (code) => {
      if (this.current === worker) {
        this.current = undefined
        this.worker = undefined
      }
      const err = failure ?? new Error(`${options.name} exited with code ${code}`)
      failedToOpen(err)
      for (const { reject } of this.pending.values()) reject(err)
      this.pending.clear()
    })
    await ready
    return worker
  }
}

/**
 * Serves a thread's requests (in its entry): `handle` answers each, `close` runs on the thread's close
 * message; posts `ready` at once, so call it once what `close` closes is open.
 */
export function serveRequests<R>(
  port: MessagePort,
  handle: (request: R) => unknown,
  close: () => void,
  failure: (e: unknown) => ThreadFailure = threadFailure
): void {
  port.on('message', (message: ToRequestThread<R>) => {
    if (message.type === 'close') {
      close()
      return port.close()
    }
    // An answer that cannot cross (not plain data) fails its request, as a handler's error does.
    Promise.resolve()
      .then(() => handle(message.request))
      .then((result) => port.postMessage({ id: message.id, result }))
      .catch((e: unknown) => port.postMessage({ id: message.id, error: failure(e) }))
  })
  port.postMessage({ ready: true })
}

/** A thread's failure as an Error again, with its code. */
export function errorOf(failure: ThreadFailure): Error {
  return Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {})
}

/** An error as a thread sends it: its message, and its code when it has a string one. */
export function threadFailure(e: unknown): ThreadFailure {
  const error = e instanceof Error ? e : new Error(String(e))
  const code = (error as { code?: unknown }).code
  return { message: error.message, code: typeof code === 'string' ? code : undefined }
}
