// A PostgreSQL connection used synchronously, as better-sqlite3 is: the repositories, their transactions
// and the collector's batches run unchanged on both engines. The `pg` client lives on its own thread
// (connection-worker.ts); a statement is posted to it and this thread waits (Atomics.wait) for the
// answer. Waiting is what SQLite's calls do too; what it costs per statement is in docs/postgresql.md.
// A closed connection's thread waits, idle, for the next connection of its JS thread to take it: a
// thread's start and its `pg` cost some 100 ms of CPU (a test suite opens hundreds; a server reconnects).
import { join } from 'node:path'
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import type { BridgeAnswer, BridgeQuery, BridgeRequest, ConnectionWorkerData, DistributiveOmit } from './bridge-messages'
import { workerScriptFromSource } from '../../worker-from-source'

export interface QueryResult {
  rows: Record<string, unknown>[]
  rowCount: number
}

/** PostgreSQL's own error: `code` is the SQLSTATE (23505 unique violation, 53100 disk full…). */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail?: string
  ) {
    super(message)
    this.name = 'PostgresError'
  }
}

export interface SyncConnectionOptions {
  statementTimeoutMs?: number
  /** How long a statement may wait for a lock another session holds (absent or 0: as long as its statement may run). */
  lockTimeoutMs?: number
  /** How much longer than statement_timeout a statement is waited for before its thread is given up (default ANSWER_MARGIN_MS). */
  answerMarginMs?: number
  /** Told of every statement (or batch) answered, or failed, after `slowMs` or more. */
  onSlow?: { slowMs: number; waited(ms: number): void }
}

/** Waits this much longer than PostgreSQL's own statement timeout before giving up on the thread. */
const ANSWER_MARGIN_MS = 10_000
/** How long to wait before looking at the port again when the signal came without a readable answer. */
const POLL_MS = 5

/** The thread holding the `pg` client, and what its answers come through. */
interface ConnectionThread {
  worker: Worker
  answers: MessagePort
  signal: Int32Array
  /** The last request's number, over every connection the thread served: a late answer is never taken for a new one's. */
  lastId: number
}

/** Threads of closed connections, for the next ones to take (per JS thread: each has its own module state). */
const idleThreads: ConnectionThread[] = []
/** Enough for a store, its job lease and a reconnection or two; the others end. */
const MAX_IDLE_THREADS = 4

export class SyncConnection {
  private thread: ConnectionThread
  private readonly statementTimeoutMs: number
  private readonly lockTimeoutMs: number
  private readonly waitMs: number
  private readonly onSlow: SyncConnectionOptions['onSlow']
  private closed = false

  constructor(
    readonly url: string,
    options: SyncConnectionOptions = {}
  ) {
    this.statementTimeoutMs = options.statementTimeoutMs ?? 60_000
    this.lockTimeoutMs = options.lockTimeoutMs ?? 0
    this.waitMs = this.statementTimeoutMs + (options.answerMarginMs ?? ANSWER_MARGIN_MS)
    this.onSlow = options.onSlow
    this.thread = this.openThread(idleThreads.pop() ?? startThread())
  }

  /** Gives the thread this connection's settings (its client connects with the first statement). */
  private openThread(thread: ConnectionThread): ConnectionThread {
    this.thread = thread
    try {
      const { url, statementTimeoutMs, lockTimeoutMs } = this
      this.answered(this.ask({ type: 'open', url, statementTimeoutMs, lockTimeoutMs }))
    } catch (err) {
      endThread(thread)
      throw err
    }
    return thread
  }

  query(text: string, values: readonly unknown[] = [], name?: string): QueryResult {
    return this.answered(this.timed({ type: 'query', text, values: [...values], name }))
  }

  /**
   * Sends the statements together (pipelined: one round trip), run in order; the last one's result, or
   * the first error (inside a transaction, the statements after a failed one fail too).
   */
  queries(queries: BridgeQuery[]): QueryResult {
    return this.answered(this.timed({ type: 'queries', queries }))
  }

  private timed(question: DistributiveOmit<BridgeRequest, 'id'>): BridgeAnswer {
    const started = performance.now()
    try {
      return this.ask(question)
    } finally {
      const ms = performance.now() - started
      if (this.onSlow && ms >= this.onSlow.slowMs) this.onSlow.waited(ms)
    }
  }

  private answered(answer: BridgeAnswer): QueryResult {
    if (!answer.ok) throw new PostgresError(answer.error.message, answer.error.code, answer.error.detail)
    return answer
  }

  /** From now on, statements not answered within `stallMs` are looked at, and given up when stuck (stall-watch.ts). */
  guard(stallMs: number): void {
    this.answered(this.ask({ type: 'guard', stallMs }))
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    let ended = false
    try {
      ended = this.ask({ type: 'close' }).ok
    } finally {
      // A thread whose client did not end as asked is not handed on.
      if (ended && idleThreads.length < MAX_IDLE_THREADS) idleThreads.push(this.thread)
      else endThread(this.thread)
    }
  }

  private replaceThread(): void {
    endThread(this.thread)
    this.openThread(startThread())
  }

  private ask(question: DistributiveOmit<BridgeRequest, 'id'>): BridgeAnswer {
    if (this.closed && question.type !== 'close') throw new Error('the PostgreSQL connection is closed')
    const thread = this.thread
    const id = ++thread.lastId
    const { worker, answers, signal } = thread
    worker.postMessage({ ...question, id })
    const deadline = Date.now() + this.waitMs
    // The signal can come before its message is readable on the port: read, and wait a little, until the
    // answer with this id arrives; an answer to an earlier request that gave up is dropped.
    for (;;) {
      const message = receiveMessageOnPort(answers)
      if (message) {
        const answer = message.message as BridgeAnswer
        if (answer.id === id) return answer
        continue
      }
      const left = deadline - Date.now()
      if (left <= 0) {
        // Past PostgreSQL's own timeout, its connection is stuck (a network cut without a reset): the
        // statements after this one get a new thread and connection rather than queue behind it.
        if (question.type !== 'close' && question.type !== 'open') this.replaceThread()
        throw new PostgresError(`PostgreSQL did not answer within ${Math.round(this.waitMs / 1000)} s`, 'ETIMEDOUT')
      }
      if (Atomics.wait(signal, 0, 0, Math.min(left, POLL_MS)) !== 'timed-out') Atomics.store(signal, 0, 0)
    }
  }
}

let builtWorkerScript: string | undefined

/**
 * The built server ships the connection thread as its own bundle (electron-vite's `?modulePath`, which
 * only an `import()` resolves): entries call this once before opening a PostgreSQL store. From sources
 * (tests, tsx) the thread's entry is bundled when first needed (worker-from-source.ts).
 */
export async function loadPostgresSupport(): Promise<void> {
  if (__filename.endsWith('.ts') || builtWorkerScript) return
  builtWorkerScript = (await import('./connection-worker?modulePath')).default
}

/** The connection thread's script, to hand to another thread: the built one once loaded, or from sources a bundle of them. */
export function postgresWorkerScript(): string | undefined {
  return __filename.endsWith('.ts') ? workerScriptFromSource(join(__dirname, 'connection-worker.ts')) : builtWorkerScript
}

/**
 * In a thread of the built server: the script its parent loaded. A worker bundle cannot resolve its own
 * `?modulePath` import (electron-vite builds that only for the entries).
 */
export function usePostgresWorker(script: string | undefined): void {
  builtWorkerScript = script
}

/** How many closed connections' threads wait for the next connection of this JS thread. */
export function idleConnectionThreads(): number {
  return idleThreads.length
}

function startThread(): ConnectionThread {
  const script = postgresWorkerScript()
  if (!script) throw new Error('loadPostgresSupport() must run before a PostgreSQL connection opens')
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const { port1, port2 } = new MessageChannel()
  const data: ConnectionWorkerData & { answers: MessagePort } = { signal: signal.buffer as SharedArrayBuffer, answers: port2 }
  const worker = new Worker(script, { workerData: data, transferList: [port2] })
  // The thread must not keep a finished process alive, working or idle.
  worker.unref()
  const thread: ConnectionThread = { worker, answers: port1, signal, lastId: 0 }
  // A thread that ended (terminated, or failed) is never handed on.
  worker.once('exit', () => {
    const idle = idleThreads.indexOf(thread)
    if (idle >= 0) idleThreads.splice(idle, 1)
  })
  return thread
}

function endThread(thread: ConnectionThread): void {
  void thread.worker.terminate()
  thread.answers.close()
}
