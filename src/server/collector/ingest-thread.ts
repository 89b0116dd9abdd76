/// <reference types="electron-vite/node" />
// Stores collector messages on a worker thread of their own, with their own SQLite connection, while
// the main thread serves HTTP. Parsing and storing are most of a message's CPU; on one thread with
// HTTP the collector stopped near 800 msg/s on two cores. The main thread still authenticates, reads
// and gunzips the body (so a refused agent costs the ingest thread nothing), and publishes the live
// changes of each stored batch, after its commit and before its answers.
//
// SQLite (WAL) lets one connection write at a time: store transactions are IMMEDIATE and wait up to
// busy_timeout for each other, so admin writes and jobs on the main thread interleave safely with the
// collector's. Ingest's in-memory caches live on the ingest thread only; nothing else writes what they hold.
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { ChangeFeed } from '../live/change-feed'
import { RepeatedFailureLog, type Logger } from '../log'
import type { CollectOutcome, CollectRequest } from './collect-message'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { workerScriptFromSource } from '../worker-from-source'
import type { FromIngestThread, IngestReady, IngestWorkerData, ToIngestThread } from './ingest-messages'

/**
 * The ingest thread's young generation (V8's default: up to 48 MiB). Its messages' garbage dies young,
 * so a small one costs little: 8 MiB held its RSS some 20 MB lower with 1,000 agents reporting, for
 * about 5 % more of its CPU per message (bench/footprint.ts, bench/collector.ts).
 */
const INGEST_YOUNG_GENERATION_MB = 8

/** Between attempts to start a new thread when one could not start. */
const RESTART_RETRY_MS = 1000

/** Where collector messages go once admitted: answers with what became of the message. */
export interface MessageCollector {
  /** Takes over `request.xml`: its memory may be moved to another thread, so the caller must not use it again. */
  collect(request: CollectRequest): Promise<CollectOutcome>
}

export class IngestThread implements MessageCollector {
  private readonly pending = new Map<number, (outcome: CollectOutcome) => void>()
  private nextId = 1
  private closing = false
  /** False from an unexpected exit until a new thread is ready. */
  private alive = true
  private restartTimer: NodeJS.Timeout | undefined
  private readonly restartFailures: RepeatedFailureLog
  /** An on-demand thread's first start, while it is under way. */
  private firstStart: Promise<boolean> | undefined

  private constructor(
    /** Undefined until an on-demand thread's first message. */
    private worker: Worker | undefined,
    private readonly settings: IngestWorkerData,
    private readonly feed: ChangeFeed | undefined,
    private readonly log: Logger,
    /** Told once the thread's store is open, with the SQLite page cache its connection reports. */
    private readonly onReady: (ready: IngestReady) => void = () => {}
  ) {
    this.restartFailures = new RepeatedFailureLog(log, 'collector: starting a new ingest thread')
    if (worker) this.watch(worker)
  }

  /** Starts the thread and waits until its store is open: a thread that cannot start fails the caller. */
  static async start(
    settings: IngestWorkerData,
    feed: ChangeFeed | undefined,
    log: Logger,
    onReady?: (ready: IngestReady) => void
  ): Promise<IngestThread> {
    const { worker, ready } = await spawn(settings)
    onReady?.(ready)
    return new IngestThread(worker, settings, feed, log, onReady)
  }

  /**
   * A thread started by the first message (an isolate and a store connection are some 11 MB a server
   * without agents does not need). One that cannot start then fails that message and is tried again
   * with the next.
   */
  static onDemand(
    settings: IngestWorkerData,
    feed: ChangeFeed | undefined,
    log: Logger,
    onReady?: (ready: IngestReady) => void
  ): IngestThread {
    return new IngestThread(undefined, settings, feed, log, onReady)
  }

  collect(request: CollectRequest): Promise<CollectOutcome> {
    if (this.closing) return Promise.resolve({ kind: 'failed', detail: 'the collector is shutting down' })
    if (!this.worker) return this.startThenCollect(request)
    if (!this.alive) return Promise.resolve({ kind: 'failed', detail: 'the ingest thread is not running' })
    const id = this.nextId++
    // Moved rather than cloned. A buffer that is a slice of a larger one is copied first; one that is
    // all of its memory (gunzip's output) goes as it is: a large message is not copied on this thread.
    const bytes = request.xml
    const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    const xml = whole ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes)
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      const message: ToIngestThread = { type: 'collect', id, request: { ...request, xml } }
      this.worker!.postMessage(message, [xml.buffer])
    })
  }

  private async startThenCollect(request: CollectRequest): Promise<CollectOutcome> {
    this.firstStart ??= spawn(this.settings).then(
      ({ worker, ready }) => {
        if (this.closing) {
          void worker.terminate()
          return false
        }
        this.worker = worker
        this.restartFailures.succeeded()
        this.onReady(ready)
        this.watch(worker)
        return true
      },
      (err: unknown) => {
        this.firstStart = undefined
        this.restartFailures.failed(err, 'tried again with the next message')
        return false
      }
    )
    if (!(await this.firstStart)) return { kind: 'failed', detail: 'the ingest thread could not start' }
    return this.collect(request)
  }

  /** Call after the HTTP server stopped: answers still in flight are awaited, then the store is closed. */
  async close(): Promise<void> {
    this.closing = true
    clearTimeout(this.restartTimer)
    await this.firstStart
    const worker = this.worker
    if (!worker || !this.alive) return
    const exited = new Promise<void>((done) => worker.once('exit', () => done()))
    worker.postMessage({ type: 'close' } satisfies ToIngestThread)
    await exited
  }

  private watch(worker: Worker): void {
    worker.on('message', (message: FromIngestThread) => {
      if (!('outcomes' in message)) return
      if (message.changes.length > 0) this.feed?.publishAll(message.changes)
      for (const { id, outcome } of message.outcomes) {
        const resolve = this.pending.get(id)
        this.pending.delete(id)
        resolve?.(outcome)
      }
    })
    worker.on('error', (err) => this.log.error(`collector: the ingest thread failed: ${err.stack ?? err.message}`))
    worker.on('exit', (code) => {
      this.alive = false
      // Whatever was in flight may or may not be stored: the agents retry events, heartbeats come again.
      for (const resolve of this.pending.values()) resolve({ kind: 'failed', detail: `the ingest thread exited with code ${code}` })
      this.pending.clear()
      if (this.closing) return
      this.log.error(`collector: the ingest thread exited (code ${code}); starting a new one`)
      this.restart()
    })
  }

  /** A thread that cannot start (its store cannot be opened) is tried again, however long that takes. */
  private restart(): void {
    spawn(this.settings).then(
      ({ worker: next }) => {
        if (this.closing) return void next.terminate()
        this.worker = next
        this.alive = true
        this.restartFailures.succeeded()
        this.watch(next)
      },
      (err: unknown) => {
        this.restartFailures.failed(err, `tried again every ${RESTART_RETRY_MS} ms, messages are refused meanwhile`)
        if (this.closing) return
        this.restartTimer = setTimeout(() => this.restart(), RESTART_RETRY_MS)
        this.restartTimer.unref()
      }
    )
  }
}

async function spawn(settings: IngestWorkerData): Promise<{ worker: Worker; ready: IngestReady }> {
  const worker = await newWorker(settings)
  const ready = await new Promise<IngestReady>((done, fail) => {
    const onExit = (code: number) => fail(new Error(`the ingest thread exited with code ${code} while starting`))
    worker.once('error', fail)
    worker.once('exit', onExit)
    worker.once('message', (message: IngestReady) => {
      worker.off('error', fail)
      worker.off('exit', onExit)
      done(message)
    })
  })
  return { worker, ready }
}

/**
 * The built server ships the worker as its own bundle (electron-vite's `?modulePath`); from sources
 * (tests, tsx) it is bundled when first needed (worker-from-source.ts).
 */
async function newWorker(settings: IngestWorkerData): Promise<Worker> {
  const script = __filename.endsWith('.ts')
    ? workerScriptFromSource(join(__dirname, 'ingest-worker.ts'))
    : (await import('./ingest-worker?modulePath')).default
  const resourceLimits = { maxYoungGenerationSizeMb: INGEST_YOUNG_GENERATION_MB }
  return new Worker(script, { workerData: { ...settings, postgresWorker: postgresWorkerScript() }, resourceLimits })
}
