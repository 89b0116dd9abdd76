// The thread behind a synchronous PostgreSQL connection (sync-connection.ts): one `pg` client, one
// statement at a time, each answer posted and then signalled through shared memory to the caller,
// which waits for it. Once closed, the thread can be opened again for another connection: starting a
// thread and loading `pg` costs some 100 ms of CPU, more than the connection itself.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import pg from 'pg'
import type { BridgeAnswer, BridgeRequest, ConnectionSettings, ConnectionWorkerData, DistributiveOmit } from './bridge-messages'

// Integers are 64-bit columns (timestamps in ms, counters) but always within 2^53: JavaScript numbers,
// as better-sqlite3 gives them. numeric arrives from sum()/avg().
pg.types.setTypeParser(pg.types.builtins.INT8, Number)
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number)

/** A connection PostgreSQL has not completed by then is given up: a host that drops packets would hold it for minutes. */
const CONNECT_TIMEOUT_MS = 5_000
/** While the server is out of reach, a new attempt at most this often. */
const RETRY_CONNECT_AFTER_MS = 1_000

const { answers, ...data } = workerData as ConnectionWorkerData & { answers: MessagePort }
const signal = new Int32Array(data.signal)
let settings: ConnectionSettings | undefined
let client: pg.Client | undefined
let attempt: Promise<pg.Client> | undefined
let failedAttempt: { atMs: number; error: unknown } | undefined
/** Counts the connections this thread served: an attempt begun for one never becomes the next one's client. */
let generation = 0

/**
 * The connection for a statement. While the last attempt failed, statements fail at once with its error
 * and the next attempt runs meanwhile, in the background: the thread waiting for them (the HTTP one)
 * keeps answering, with 503s, instead of waiting on attempt after attempt.
 */
async function connected(): Promise<pg.Client> {
  if (client) return client
  if (!failedAttempt) return (attempt ??= connect())
  if (!attempt && Date.now() - failedAttempt.atMs >= RETRY_CONNECT_AFTER_MS) {
    attempt = connect()
    attempt.catch(() => {}) // its failure is what the next statements answer
  }
  throw failedAttempt.error
}

async function connect(): Promise<pg.Client> {
  if (!settings) throw new Error('the connection thread was not opened')
  const mine = generation
  // Pipelined: a batch's statements go out without waiting for each answer (queries below).
  const next = new pg.Client({
    connectionString: settings.url,
    statement_timeout: settings.statementTimeoutMs,
    lock_timeout: settings.lockTimeoutMs,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    pipeline: true
  })
  // A lost connection is reported by the statement that needs it; the next one connects again.
  next.on('error', () => {
    if (client === next) client = undefined
  })
  try {
    await next.connect()
    if (mine !== generation) {
      void next.end().catch(() => {})
      throw new Error('the PostgreSQL connection is closed')
    }
    client = next
    failedAttempt = undefined
    return next
  } catch (err) {
    // pg's own connection timeout ('timeout expired') carries no code: named as the socket's would be
    // (store/storage-errors.ts).
    const timedOut = (err as { code?: string }).code === undefined && (err as Error).message === 'timeout expired'
    const error = timedOut ? Object.assign(err as Error, { code: 'ETIMEDOUT' }) : err
    if (mine === generation) failedAttempt = { atMs: Date.now(), error }
    throw error
  } finally {
    if (mine === generation) attempt = undefined
  }
}

async function answer(request: BridgeRequest): Promise<BridgeAnswer> {
  return { id: request.id, ...(await result(request)) }
}

async function result(request: BridgeRequest): Promise<DistributiveOmit<BridgeAnswer, 'id'>> {
  if (request.type === 'open') {
    settings = { url: request.url, statementTimeoutMs: request.statementTimeoutMs, lockTimeoutMs: request.lockTimeoutMs }
    return { ok: true, rows: [], rowCount: 0 }
  }
  if (request.type === 'close') {
    generation++
    const ending = client
    client = undefined
    attempt = undefined
    failedAttempt = undefined
    settings = undefined
    await ending?.end().catch(() => {})
    return { ok: true, rows: [], rowCount: 0 }
  }
  try {
    const c = await connected()
    const queries = request.type === 'queries' ? request.queries : [request]
    // All sent at once (the socket corked: one write), answered in order. Batches run inside a
    // transaction, where the statements after a failed one fail too (the transaction is aborted): the
    // first failure is the one to report.
    let sent: Promise<pg.QueryResult>[]
    c.connection.stream.cork()
    try {
      sent = queries.map((q) => c.query({ text: q.text, values: q.values, name: q.name }))
    } finally {
      c.connection.stream.uncork()
    }
    const settled = await Promise.allSettled(sent)
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    const last = (settled.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value
    return { ok: true, rows: last.rows, rowCount: last.rowCount ?? 0 }
  } catch (err) {
    const e = err as { message?: string; code?: string; detail?: string }
    if (client && !(e.code && /^[0-9A-Z]{5}$/.test(e.code))) client = undefined // not PostgreSQL's answer: the socket
    return { ok: false, error: { message: String(e.message ?? err), code: e.code, detail: e.detail } }
  }
}

parentPort!.on('message', (request: BridgeRequest) => {
  void answer(request).then((reply) => {
    answers.postMessage(reply)
    Atomics.store(signal, 0, 1)
    Atomics.notify(signal, 0)
  })
})
