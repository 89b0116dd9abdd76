// The thread behind a synchronous PostgreSQL connection (sync-connection.ts): one `pg` client, one
// statement at a time, each answer posted and then signalled through shared memory to the caller,
// which waits for it. Once closed, the thread can be opened again for another connection: starting a
// thread and loading `pg` costs some 100 ms of CPU, more than the connection itself.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import pg from 'pg'
import type {
  BridgeAnswer,
  BridgeError,
  BridgeQuery,
  BridgeRequest,
  ConnectionSettings,
  ConnectionWorkerData,
  DistributiveOmit
} from './bridge-messages'
import { APPLICATION_NAME, StallWatch, within } from './stall-watch'

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
/** Looks at statements that stall, once the caller asked (`guard`: after the migrations, which wait on their lock). */
let stalls: StallWatch | undefined
/** Between a BEGIN and its COMMIT or ROLLBACK, as the runner sends them. */
let inTransaction = false
/**
 * The client of an open transaction was lost (its socket, or given up stalling): what the caller sends
 * next would run outside it. Every statement fails, as in PostgreSQL's own aborted transaction, until
 * the caller's ROLLBACK.
 */
let lostTransaction: BridgeError | undefined

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
    application_name: APPLICATION_NAME,
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
    return done
  }
  if (request.type === 'guard') {
    stalls?.close()
    stalls = settings && request.stallMs > 0 ? new StallWatch(settings.url, request.stallMs) : undefined
    return done
  }
  if (request.type === 'close') {
    generation++
    const ending = client
    client = undefined
    attempt = undefined
    failedAttempt = undefined
    settings = undefined
    stalls?.close()
    stalls = undefined
    inTransaction = false
    lostTransaction = undefined
    await ending?.end().catch(() => {})
    return done
  }
  const queries = request.type === 'queries' ? request.queries : [request]
  if (lostTransaction) {
    if (queries.length > 1 || queries[0].text !== 'ROLLBACK') return { ok: false, error: lostTransaction }
    lostTransaction = undefined
    return done
  }
  let c: pg.Client | undefined
  try {
    if (stalls?.failing) return { ok: false, error: stalls.failing }
    c = await connectedInTime()
    // All sent at once (the socket corked: one write), answered in order. Batches run inside a
    // transaction, where the statements after a failed one fail too (the transaction is aborted): the
    // first failure is the one to report.
    let sent: Promise<pg.QueryResult>[]
    c.connection.stream.cork()
    try {
      sent = queries.map((q) => c!.query({ text: q.text, values: q.values, name: q.name }))
    } finally {
      c.connection.stream.uncork()
    }
    const settled = await settledInTime(c, Promise.allSettled(sent))
    if (!settled.ok) return settled
    followTransaction(queries, settled.results)
    const failed = settled.results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    const last = (settled.results.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value
    return { ok: true, rows: last.rows, rowCount: last.rowCount ?? 0 }
  } catch (err) {
    const e = err as { message?: string; code?: string; detail?: string }
    const error = { message: String(e.message ?? err), code: e.code, detail: e.detail }
    if (c && !(e.code && /^[0-9A-Z]{5}$/.test(e.code))) lose(c, error) // not PostgreSQL's answer: the socket
    return { ok: false, error }
  }
}

const done: DistributiveOmit<BridgeAnswer, 'id'> = { ok: true, rows: [], rowCount: 0 }

/** The client, or while stalls are looked at, a failure once connecting took longer than they allow. */
async function connectedInTime(): Promise<pg.Client> {
  const connecting = connected()
  if (!stalls) return connecting
  const c = await within(connecting, stalls.connectWithinMs)
  if (c) return c
  // The attempt goes on; statements fail at once meanwhile (connected), as after a failed one.
  const error = Object.assign(new Error(`PostgreSQL did not accept a connection within ${(stalls.connectWithinMs / 1000).toFixed(2)} s`), {
    code: 'ETIMEDOUT'
  })
  failedAttempt = { atMs: Date.now(), error }
  throw error
}

/**
 * The statements' outcomes; or, while stalls are looked at and they stall, the failure they were given
 * up with. A statement cancelled in its lock wait leaves its client serving (an open transaction is then
 * aborted, as by any of PostgreSQL's errors); any other is dropped with its client (a statement still
 * waiting there must not run later, in another's place).
 */
async function settledInTime(
  c: pg.Client,
  all: Promise<PromiseSettledResult<pg.QueryResult>[]>
): Promise<{ ok: true; results: PromiseSettledResult<pg.QueryResult>[] } | { ok: false; error: BridgeError }> {
  for (;;) {
    const results = stalls ? await within(all, stalls.lookAfterMs) : await all
    if (results) return { ok: true, results }
    const pid = backendPid(c)
    const look = await stalls!.look(pid)
    if (look.kind === 'running') continue
    const error = await stalls!.giveUp(pid, look)
    if (look.kind !== 'locked' || !(await within(all, stalls!.stallMs))) lose(c, error)
    return { ok: false, error }
  }
}

/** The client's server process (its BackendKeyData; pg's types leave it out). */
function backendPid(c: pg.Client): number {
  return (c as pg.Client & { processID: number }).processID
}

/** Whether a transaction is open after these statements' outcomes. */
function followTransaction(queries: BridgeQuery[], results: PromiseSettledResult<pg.QueryResult>[]): void {
  queries.forEach((q, i) => {
    if (q.text === 'BEGIN' && results[i].status === 'fulfilled') inTransaction = true
    else if (q.text === 'COMMIT' || q.text === 'ROLLBACK') inTransaction = false
  })
}

/** Drops a client that cannot serve any more; an open transaction goes with it. */
function lose(c: pg.Client, error: BridgeError): void {
  if (client === c) client = undefined
  c.connection.stream.destroy()
  if (inTransaction) lostTransaction = { ...error, message: `${error.message} (the transaction is lost with its connection)` }
  inTransaction = false
}

parentPort!.on('message', (request: BridgeRequest) => {
  void answer(request).then((reply) => {
    answers.postMessage(reply)
    Atomics.store(signal, 0, 1)
    Atomics.notify(signal, 0)
  })
})
