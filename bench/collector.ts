// Collector throughput: real Monit payloads POSTed over HTTP to the built server by many distinct
// agents, one new TCP connection per message like Monit, against the floor of the same work without
// HTTP (gunzip + parse + one SQLite transaction per message, in this process), and against the
// server's own path without HTTP (the same, committing in batches as its ingest thread does). The load
// client shares the machine, so it sends prepared request bytes on raw sockets; the server's CPU is
// reported per thread (HTTP and gunzip on the main thread, parse and store on the ingest thread), per
// message, because on a shared machine CPU per message says more than messages per second.
//
// Sizing: BENCH_AGENTS (1000), BENCH_MESSAGES (20000), BENCH_CONCURRENCY (32), BENCH_MAX_SECONDS (120,
// bound per HTTP phase). BENCH_SERVER_PROF_DIR=dir makes the server write V8 CPU profiles there (one per thread);
// `node --cpu-prof --import tsx bench/run.ts collector` profiles the floor. BENCH_ALERT_RULES=n (unset: none) makes n
// alert rules, one channel each, active in every phase (issue 13: matching is on the collector's path);
// the outbox rows they wrote are reported. No delivery job sends them here.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { SecretBox } from '../src/server/auth/secret-box'
import { collectMessages, MAX_BATCH } from '../src/server/collector/collect-message'
import { Ingest } from '../src/server/collector/ingest'
import { parseMonitMessage } from '../src/server/monit/parse-message'
import type { Principal } from '../src/server/domain/permissions'
import { DATABASE_FILE } from '../src/server/server'
import { Store } from '../src/server/store/store'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { addBenchRules, notificationCounts, outboxCount, type BenchRuleOptions } from './alert-rules'
import { buildTraffic, xmlOf, type Payload } from './collector-payloads'
import { sqliteOf } from '../test/support/test-database'
import { envInt, fixed, int, percentile, printRows, secondsSince, startPlainServer, verdict, type Benchmark } from './support'

const TARGET_MSG_PER_S = 1500
const MAX_FLOOR_RATIO = 2
export const CREDENTIALS = 'bench:bench'
const REQUEST_TIMEOUT_MS = 10_000
const ERROR_LOG_LINES = 20

export interface Settings {
  agents: number
  messages: number
  concurrency: number
  /** Bound on each HTTP phase: no new requests start after it. */
  maxSeconds: number
  /** Alert rules active while measuring */
  alertRules: number
  /** The rules' channel URL and group wait (bench/alerting.ts); the defaults otherwise. */
  alertOptions?: BenchRuleOptions
  /** Where the server writes a V8 CPU profile (`--cpu-prof`) when it stops; none when unset. */
  serverProfileDir?: string
}

export function settings(): Settings {
  return {
    agents: envInt('BENCH_AGENTS', 1000),
    messages: envInt('BENCH_MESSAGES', 20_000),
    concurrency: envInt('BENCH_CONCURRENCY', 32),
    maxSeconds: envInt('BENCH_MAX_SECONDS', 120),
    alertRules: envInt('BENCH_ALERT_RULES', 0),
    serverProfileDir: process.env.BENCH_SERVER_PROF_DIR || undefined
  }
}

export const collectorBenchmark: Benchmark = {
  name: 'collector',
  description: 'POST /collector throughput and latency vs. the no-HTTP floor',
  run: runCollectorBenchmark
}

async function runCollectorBenchmark(): Promise<void> {
  const s = settings()
  const traffic = buildTraffic(s.agents, s.messages)
  const gzipped = traffic.messages.filter((p) => p.gzip).length
  console.log(
    `payloads: ${int(s.messages)} messages from ${int(s.agents)} agents (${traffic.kindNames.join(', ')}), ` +
      `${Math.round((100 * gzipped) / s.messages)}% gzipped; concurrency ${s.concurrency}, a new connection per message; ` +
      `${s.alertRules} alert rules`
  )

  const http = await measureHttp(traffic.warmup, traffic.messages, s)
  printHttp(http, s)
  const parseOnly = measureParseOnly(traffic.messages)
  const floor = measureFloor(traffic.warmup, traffic.messages, s.alertRules)
  const batched = measureBatchedFloor(traffic.warmup, traffic.messages, s.alertRules)
  printFloor(floor, batched, parseOnly, http)
  printVerdicts(http, floor, s)
}

/** Messages per second: for HTTP only those answered 2xx count. */
export const rate = (r: HttpRun | LoopRun): number => ('ok' in r ? r.ok : r.messages) / r.seconds

const cpuShare = (cpuSeconds: number, run: HttpRun): string =>
  `${fixed(cpuSeconds, 2)} s (${Math.round((100 * cpuSeconds) / run.seconds)}% of one core), ` +
  `${int((cpuSeconds / run.sent) * 1e6)} µs/msg`

export function printHttp(http: HttpRun, s: Settings): void {
  console.log('over HTTP (built server, child process):')
  const cutShort = http.sent < s.messages ? ` (stopped at the ${s.maxSeconds} s bound)` : ''
  printRows([
    ['messages', `${int(http.ok)} ok of ${int(http.sent)} sent${cutShort}`],
    ['seconds', fixed(http.seconds, 2)],
    ['throughput', `${int(rate(http))} msg/s`],
    ['latency p50', `${fixed(percentile(http.latenciesMs, 50), 2)} ms`],
    ['latency p99', `${fixed(percentile(http.latenciesMs, 99), 2)} ms`],
    ['latency max', `${fixed(percentile(http.latenciesMs, 100), 2)} ms`],
    ['errors', http.errors.size === 0 ? '0' : describe(http.errors)],
    ['alert rules', `${s.alertRules}, ${int(http.outboxRows)} outbox rows written`],
    // Shows whether the server was the bottleneck (near 100%) or starved of CPU by other work.
    ['server CPU', http.serverCpu === undefined ? 'n/a' : cpuShare(http.serverCpu.total, http)],
    // The main thread serves HTTP; the ingest thread stores: each must stay under 1/target s per message.
    ['  main thread', http.serverCpu === undefined ? 'n/a' : cpuShare(http.serverCpu.main, http)],
    ['  busiest other', http.serverCpu === undefined ? 'n/a' : cpuShare(http.serverCpu.busiestOther, http)],
    ['client CPU', cpuShare(http.clientCpuSeconds, http)]
  ])
}

function printFloor(floor: LoopRun, batched: LoopRun, parseOnly: LoopRun, http: HttpRun): void {
  console.log('floor (this process, no HTTP):')
  printRows([
    [
      'gunzip + parse + ingest',
      `${int(rate(floor))} msg/s, ${perMessage(floor)} ` +
        `(${int(floor.messages)} messages in ${fixed(floor.seconds, 2)} s, one transaction each)`
    ],
    // What the server itself does without HTTP and threads: one commit per batch, as on its ingest thread.
    [`  in batches of ${MAX_BATCH}`, `${int(rate(batched))} msg/s, ${perMessage(batched)}`],
    ['gunzip + parse only', `${int(rate(parseOnly))} msg/s, ${perMessage(parseOnly)}`],
    ['floor / HTTP', fixed(rate(floor) / rate(http), 2)]
  ])
}

function printVerdicts(http: HttpRun, floor: LoopRun, s: Settings): void {
  const ratio = rate(floor) / rate(http)
  const errorCount = [...http.errors.values()].reduce((a, b) => a + b, 0)
  console.log(verdict(`target ≥${int(TARGET_MSG_PER_S)} msg/s`, rate(http) >= TARGET_MSG_PER_S, `${int(rate(http))} msg/s`))
  console.log(verdict(`within ${MAX_FLOOR_RATIO}x of floor`, ratio <= MAX_FLOOR_RATIO, `ratio ${fixed(ratio, 2)}`))
  console.log(
    verdict('no errors', errorCount === 0 && http.sent === s.messages, `${errorCount} errors, ${int(http.sent)} of ${int(s.messages)} sent`)
  )
}

// ---------------------------------------------------------------------------------------------
// Over HTTP

export interface HttpRun {
  sent: number
  ok: number
  seconds: number
  latenciesMs: number[]
  /** "HTTP 500", "ECONNRESET", …: how many of each. */
  errors: Map<string, number>
  serverCpu?: ServerCpu
  clientCpuSeconds: number
  /** Alert outbox rows in the database after the run */
  outboxRows: number
  /** Alert notifications in the database after the run: grouped, and taken by their channel */
  notifications: { made: number; delivered: number }
}

/** Where the measured servers keep their data: SQLite (their data folder's file), or one PostgreSQL database shared by `instances` servers. */
export interface Engine {
  database?: string
  instances?: number
}

export async function measureHttp(warmup: Payload[], messages: Payload[], s: Settings, engine: Engine = {}): Promise<HttpRun> {
  // Our own data dir, so it is removed even when the server fails to start.
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  const servers: BuiltServer[] = []
  let run: HttpRun | undefined
  try {
    // Instances share the data folder too: the agents' credentials are sealed with its secret key.
    const args = ['--init-collector', CREDENTIALS, ...(engine.database ? ['--database', engine.database] : [])]
    for (let i = 0; i < (engine.instances ?? 1); i++) servers.push(await startPlainServer(dataDir, args, s.serverProfileDir))
    // Another connection, as the admin API's: the server's ingest thread learns of the rules by itself.
    const alerts = alertTables(dataDir, engine.database)
    try {
      alerts.addRules(s.alertRules, s.alertOptions)
      const loaded = await loadServers(servers, warmup, messages, s)
      run = { ...loaded, outboxRows: alerts.outboxRows(), notifications: alerts.notifications() }
    } finally {
      alerts.close()
    }
    return run
  } finally {
    for (const server of servers) {
      const code = await server.stop()
      if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
      // What the server said about failed requests.
      else if (run && run.errors.size > 0)
        console.log(`server log, last lines:\n${server.output().split('\n').slice(-ERROR_LOG_LINES).join('\n')}`)
    }
    removeDir(dataDir)
  }
}

/** The alert tables the collector run writes to: SQLite's file directly, or the PostgreSQL database (counts only). */
function alertTables(dataDir: string, database: string | undefined) {
  if (database === undefined) {
    const db = new Database(join(dataDir, DATABASE_FILE))
    return {
      addRules: (count: number, options?: BenchRuleOptions) => addBenchRules(db, count, options),
      outboxRows: () => outboxCount(db),
      notifications: () => notificationCounts(db),
      close: () => db.close()
    }
  }
  const store = new Store(database)
  return {
    addRules: (count: number) => {
      if (count > 0) throw new Error('BENCH_ALERT_RULES is measured on SQLite only')
    },
    outboxRows: () => store.sql.rows<{ n: number }>('SELECT COUNT(*) AS n FROM alert_outbox')[0].n,
    notifications: () => ({ made: store.sql.rows<{ n: number }>('SELECT COUNT(*) AS n FROM alert_notification')[0].n, delivered: 0 }),
    close: () => store.close()
  }
}

/** Sends the load to the servers, taking turns among them, and measures what they use. */
async function loadServers(
  servers: BuiltServer[],
  warmup: Payload[],
  messages: Payload[],
  s: Settings
): Promise<Omit<HttpRun, 'outboxRows' | 'notifications'>> {
  const authorization = `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`
  const targets: Target[] = servers.map((server) => ({ port: server.port, authorization }))
  // Registering the agents and warming the JIT are not what is measured.
  const registered = await sendAll(targets, warmup, s)
  if (registered.errors.size > 0) throw new Error(`warm-up failed: ${describe(registered.errors)}\n${servers[0].output()}`)

  // Server CPU is the first instance's: with two, each has its share of the load.
  const pid = servers[0].child.pid
  const serverCpuBefore = pid === undefined ? undefined : threadCpuSeconds(pid)
  const clientCpuBefore = process.cpuUsage()
  const run = await sendAll(targets, messages, s)
  const serverCpuAfter = pid === undefined ? undefined : threadCpuSeconds(pid)
  const clientCpu = process.cpuUsage(clientCpuBefore)
  return {
    ...run,
    serverCpu: serverCpuBefore && serverCpuAfter && pid !== undefined ? serverCpuUsed(pid, serverCpuBefore, serverCpuAfter) : undefined,
    clientCpuSeconds: (clientCpu.user + clientCpu.system) / 1e6
  }
}

const describe = (errors: Map<string, number>): string => [...errors].map(([what, n]) => `${n} × ${what}`).join(', ')

export interface Target {
  port: number
  authorization: string
}

/** Sends every payload with `concurrency` requests in flight, to the targets in turn, until done or the time bound. */
async function sendAll(
  targets: Target[],
  payloads: Payload[],
  s: Settings
): Promise<Omit<HttpRun, 'clientCpuSeconds' | 'outboxRows' | 'notifications'>> {
  // Built before the clock starts: the client should cost as little CPU per message as an agent does.
  const requests = payloads.map((p, i) => ({ target: targets[i % targets.length], wire: agentRequest(targets[i % targets.length], p) }))
  const latenciesMs: number[] = []
  const errors = new Map<string, number>()
  const deadline = Date.now() + s.maxSeconds * 1000
  let next = 0
  let ok = 0
  const worker = async () => {
    while (next < requests.length && Date.now() < deadline) {
      const { target, wire } = requests[next++]
      const start = process.hrtime.bigint()
      const outcome = await post(target, wire)
      latenciesMs.push(Number(process.hrtime.bigint() - start) / 1e6)
      if (outcome === 'ok') ok++
      else errors.set(outcome, (errors.get(outcome) ?? 0) + 1)
    }
  }
  const start = process.hrtime.bigint()
  await Promise.all(Array.from({ length: s.concurrency }, worker))
  const seconds = secondsSince(start)
  latenciesMs.sort((a, b) => a - b)
  return { sent: next, ok, seconds, latenciesMs, errors }
}

/** The request bytes a Monit 5.33 agent writes, header order and spelling included (agent protocol §3.2). */
export function agentRequest(target: Target, payload: Payload): Buffer {
  const head =
    'POST /collector HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${target.port}\r\n` +
    'Content-Type: text/xml\r\n' +
    `Content-Length: ${payload.body.length}\r\n` +
    'Pragma: no-cache\r\n' +
    'Accept: */*\r\n' +
    'User-Agent: Monit/5.33.0\r\n' +
    (payload.gzip ? 'Content-Encoding: gzip\r\n' : '') +
    `Authorization: ${target.authorization}\r\n\r\n`
  return Buffer.concat([Buffer.from(head, 'latin1'), payload.body])
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3}) /

/**
 * One request on a new connection, as Monit sends it; 'ok' for a 2xx, else what went wrong. Raw
 * sockets rather than node:http: the client shares the server's two cores, so its CPU counts.
 * Like the agent it only needs the status line, but it reads on to the server's close so that the
 * latency covers the whole exchange.
 */
export function post(target: Target, wire: Buffer): Promise<string> {
  return new Promise((resolve) => {
    let outcome = ''
    const socket = connect(target.port, '127.0.0.1', () => socket.write(wire))
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    socket.on('data', (chunk: Buffer) => {
      if (outcome !== '') return
      const status = Number(STATUS_LINE.exec(chunk.toString('latin1', 0, 16))?.[1] ?? 0)
      outcome = status >= 200 && status < 300 ? 'ok' : status === 0 ? 'no status line' : `HTTP ${status}`
    })
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (outcome === '') outcome = err.code ?? err.message
    })
    socket.on('close', () => resolve(outcome || 'closed without an answer'))
  })
}

interface ServerCpu {
  total: number
  /** The thread that serves HTTP. */
  main: number
  /** The busiest of the others: the ingest thread when there is one. */
  busiestOther: number
}

/** CPU seconds (user + system) each thread of a process has used, by thread id, from /proc; undefined where there is none. */
function threadCpuSeconds(pid: number): Map<number, number> | undefined {
  try {
    const used = new Map<number, number>()
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      // Fields after the parenthesised command name: utime and stime are the 12th and 13th, in ticks.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const CLOCK_TICKS_PER_S = 100
      used.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S)
    }
    return used
  } catch {
    return undefined
  }
}

function serverCpuUsed(pid: number, before: Map<number, number>, after: Map<number, number>): ServerCpu {
  const used = [...after].map(([tid, seconds]) => [tid, seconds - (before.get(tid) ?? 0)] as const)
  const others = used.filter(([tid]) => tid !== pid).map(([, seconds]) => seconds)
  return {
    total: used.reduce((sum, [, seconds]) => sum + seconds, 0),
    main: used.find(([tid]) => tid === pid)?.[1] ?? 0,
    busiestOther: Math.max(0, ...others)
  }
}

// ---------------------------------------------------------------------------------------------
// Floor: the same per-message work without HTTP

interface LoopRun {
  messages: number
  seconds: number
  /** CPU this process used meanwhile: comparable with the server's threads when the machine is busy. */
  cpuSeconds: number
}

const perMessage = (r: LoopRun): string =>
  `${int((r.seconds / r.messages) * 1e6)} µs/msg (CPU ${int((r.cpuSeconds / r.messages) * 1e6)} µs/msg)`

/** Times `loop` in wall-clock and CPU seconds. */
function timed(messages: number, loop: () => void): LoopRun {
  const cpuBefore = process.cpuUsage()
  const start = process.hrtime.bigint()
  loop()
  const seconds = secondsSince(start)
  const cpu = process.cpuUsage(cpuBefore)
  return { messages, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 }
}

function measureParseOnly(messages: Payload[]): LoopRun {
  return timed(messages.length, () => {
    for (const p of messages) parseMonitMessage(xmlOf(p))
  })
}

/** The floor: gunzip, parse and one transaction per message. */
function measureFloor(warmup: Payload[], messages: Payload[], alertRules: number): LoopRun {
  return withIngest(warmup, alertRules, (ingest) => {
    const apply = (p: Payload) => ingest.apply(parseMonitMessage(xmlOf(p)), Date.now())
    return timed(messages.length, () => messages.forEach(apply))
  })
}

/** The server's own path without HTTP and threads: gunzip, then parse and store in batches of MAX_BATCH. */
function measureBatchedFloor(warmup: Payload[], messages: Payload[], alertRules: number): LoopRun {
  return withIngest(warmup, alertRules, (ingest) =>
    timed(messages.length, () => {
      for (let i = 0; i < messages.length; i += MAX_BATCH) {
        const requests = messages.slice(i, i + MAX_BATCH).map((p) => ({ xml: xmlOf(p), principal: BENCH_PRINCIPAL, nowMs: Date.now() }))
        const failed = collectMessages(ingest, requests).filter((o) => o.kind !== 'stored')
        if (failed.length > 0) throw new Error(`batched floor: ${JSON.stringify(failed[0])}`)
      }
    })
  )
}

/** A fresh store with every agent registered once (untimed) and the alert rules, like the HTTP run's starting point. */
function withIngest(warmup: Payload[], alertRules: number, measure: (ingest: Ingest) => LoopRun): LoopRun {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  const store = new Store(join(dir, 'overseer.sqlite'))
  try {
    addBenchRules(sqliteOf(store), alertRules)
    const ingest = new Ingest(store, SecretBox.fromKeyFile(join(dir, 'secret.key')))
    for (const p of warmup) ingest.apply(parseMonitMessage(xmlOf(p)), Date.now())
    return measure(ingest)
  } finally {
    store.close()
    removeDir(dir)
  }
}

const BENCH_PRINCIPAL: Principal = { userId: 0, uname: 'bench', admin: true, everyHost: 1, perHost: new Map() }
