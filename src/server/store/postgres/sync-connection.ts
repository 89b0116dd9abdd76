// A PostgreSQL connection used synchronously, as better-sqlite3 is: the repositories, their transactions
// and the collector's batches run unchanged on both engines. The `pg` client lives on its own thread
// (connection-worker.ts); a statement is posted to it and this thread waits (Atomics.wait) for the
// answer. Waiting is what SQLite's calls do too; what it costs per statement is in docs/postgresql.md.
import { join } from 'node:path'
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import type { BridgeAnswer, BridgeQuery, BridgeRequest, ConnectionWorkerData } from './bridge-messages'

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
}

/** Waits this much longer than PostgreSQL's own statement timeout before giving up on the thread. */
const ANSWER_MARGIN_MS = 10_000

export class SyncConnection {
  private readonly worker: Worker
  private readonly answers: MessagePort
  private readonly signal = new Int32Array(new SharedArrayBuffer(4))
  private readonly waitMs: number
  private closed = false

  constructor(
    readonly url: string,
    options: SyncConnectionOptions = {}
  ) {
    const statementTimeoutMs = options.statementTimeoutMs ?? 60_000
    this.waitMs = statementTimeoutMs + ANSWER_MARGIN_MS
    const { port1, port2 } = new MessageChannel()
    this.answers = port1
    const data: ConnectionWorkerData & { answers: MessagePort } = { url, signal: this.signal.buffer as SharedArrayBuffer, statementTimeoutMs, answers: port2 }
    this.worker = connectionWorker(data, [port2])
    // The thread must not keep a finished process alive; close() ends it properly.
    this.worker.unref()
  }

  query(text: string, values: readonly unknown[] = [], name?: string): QueryResult {
    return this.answered(this.ask({ type: 'query', text, values: [...values], name }))
  }

  /** Runs the statements in order in one round trip, stopping at the first error; the last one's result. */
  queries(queries: BridgeQuery[]): QueryResult {
    return this.answered(this.ask({ type: 'queries', queries }))
  }

  private answered(answer: BridgeAnswer): QueryResult {
    if (!answer.ok) throw new PostgresError(answer.error.message, answer.error.code, answer.error.detail)
    return answer
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      this.ask({ type: 'close' })
    } finally {
      void this.worker.terminate()
    }
  }

  private ask(request: BridgeRequest): BridgeAnswer {
    if (this.closed && request.type !== 'close') throw new Error('the PostgreSQL connection is closed')
    this.worker.postMessage(request)
    if (Atomics.wait(this.signal, 0, 0, this.waitMs) === 'timed-out') {
      throw new Error(`PostgreSQL did not answer within ${Math.round(this.waitMs / 1000)} s`)
    }
    Atomics.store(this.signal, 0, 0)
    // The answer can reach the port a moment after the signal (seen under load): wait for it rather
    // than leave it for the next statement to read as its own.
    const giveUpAt = Date.now() + ANSWER_MARGIN_MS
    for (;;) {
      const message = receiveMessageOnPort(this.answers)
      if (message) return message.message as BridgeAnswer
      if (Date.now() > giveUpAt) throw new Error('the PostgreSQL connection thread answered nothing')
      Atomics.wait(this.signal, 0, 0, 1)
    }
  }
}

let builtWorkerScript: string | undefined

/**
 * The built server ships the connection thread as its own bundle (electron-vite's `?modulePath`, which
 * only an `import()` resolves): entries call this once before opening a PostgreSQL store. From sources
 * (tests, tsx) the TypeScript entry is compiled on the fly and nothing needs loading.
 */
export async function loadPostgresSupport(): Promise<void> {
  if (__filename.endsWith('.ts') || builtWorkerScript) return
  builtWorkerScript = (await import('./connection-worker?modulePath')).default
}

/**
 * The built connection thread's script once loaded, for a thread that opens its own connections: its
 * bundle cannot resolve `?modulePath` itself (electron-vite inlines the module instead), so the thread
 * that loaded it passes it on. Undefined from sources, where none is needed.
 */
export function connectionWorkerScript(): string | undefined {
  return builtWorkerScript
}

/** In a thread given `connectionWorkerScript()` by the thread that started it: what loadPostgresSupport() sets. */
export function useConnectionWorkerScript(script: string | undefined): void {
  builtWorkerScript = script
}

function connectionWorker(data: ConnectionWorkerData & { answers: MessagePort }, transfer: MessagePort[]): Worker {
  if (!__filename.endsWith('.ts')) {
    if (!builtWorkerScript) throw new Error('loadPostgresSupport() must run before a PostgreSQL connection opens')
    return new Worker(builtWorkerScript, { workerData: data, transferList: transfer })
  }
  const entry = join(__dirname, 'connection-worker.ts')
  return new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(entry)})`, {
    eval: true,
    workerData: data,
    transferList: transfer
  })
}
