// Collector throughput: real Monit payloads POSTed over HTTP to the built server by many distinct
// agents, one new TCP connection per message like Monit, against the floor of the same work without
// HTTP (gunzip + parse + one SQLite transaction per message, in this process).
import { readFileSync, mkdtempSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SecretBox } from '../src/server/auth/secret-box'
import { Ingest } from '../src/server/collector/ingest'
import { parseMonitMessage } from '../src/server/collector/parse-message'
import { Store } from '../src/server/store/store'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { buildTraffic, xmlOf, type Payload } from './collector-payloads'
import { envInt, fixed, int, percentile, printRows, secondsSince, verdict, type Benchmark } from './support'

const TARGET_MSG_PER_S = 1500
const MAX_FLOOR_RATIO = 2
const CREDENTIALS = 'bench:bench'
const REQUEST_TIMEOUT_MS = 10_000

interface Settings {
  agents: number
  messages: number
  concurrency: number
  /** Bound on each HTTP phase: no new requests start after it. */
  maxSeconds: number
  /** Where the server writes a V8 CPU profile (`--cpu-prof`) when it stops; none when unset. */
  serverProfileDir?: string
}

function settings(): Settings {
  return {
    agents: envInt('BENCH_AGENTS', 1000),
    messages: envInt('BENCH_MESSAGES', 20_000),
    concurrency: envInt('BENCH_CONCURRENCY', 32),
    maxSeconds: envInt('BENCH_MAX_SECONDS', 120),
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
  console.log(`payloads: ${int(s.messages)} messages from ${int(s.agents)} agents (${traffic.kindNames.join(', ')}), ` +
    `${Math.round((100 * gzipped) / s.messages)}% gzipped; concurrency ${s.concurrency}, a new connection per message`)

  const http = await measureHttp(traffic.warmup, traffic.messages, s)
  const parseOnly = measureParseOnly(traffic.messages)
  const floor = measureFloor(traffic.warmup, traffic.messages)

  console.log('over HTTP (built server, child process):')
  printRows([
    ['messages', `${int(http.ok)} ok of ${int(http.sent)} sent${http.sent < s.messages ? ` (stopped at the ${s.maxSeconds} s bound)` : ''}`],
    ['seconds', fixed(http.seconds, 2)],
    ['throughput', `${int(http.ok / http.seconds)} msg/s`],
    ['latency p50', `${fixed(percentile(http.latenciesMs, 50), 2)} ms`],
    ['latency p99', `${fixed(percentile(http.latenciesMs, 99), 2)} ms`],
    ['latency max', `${fixed(percentile(http.latenciesMs, 100), 2)} ms`],
    ['errors', http.errors.size === 0 ? '0' : [...http.errors].map(([what, n]) => `${n} × ${what}`).join(', ')],
    ['server CPU', http.serverCpuSeconds === undefined ? 'n/a'
      : `${fixed(http.serverCpuSeconds, 2)} s (${Math.round((100 * http.serverCpuSeconds) / http.seconds)}% of one core)`],
    ['client CPU', `${fixed(http.clientCpuSeconds, 2)} s (${Math.round((100 * http.clientCpuSeconds) / http.seconds)}% of one core)`]
  ])
  console.log('floor (this process, no HTTP):')
  const httpRate = http.ok / http.seconds
  const floorRate = floor.messages / floor.seconds
  printRows([
    ['gunzip + parse + ingest', `${int(floorRate)} msg/s (${int(floor.messages)} messages in ${fixed(floor.seconds, 2)} s, one transaction each)`],
    ['gunzip + parse only', `${int(parseOnly.messages / parseOnly.seconds)} msg/s`],
    ['floor / HTTP', `${fixed(floorRate / httpRate, 2)}`]
  ])
  console.log(verdict(`target ≥${int(TARGET_MSG_PER_S)} msg/s`, httpRate >= TARGET_MSG_PER_S, `${int(httpRate)} msg/s`))
  console.log(verdict(`within ${MAX_FLOOR_RATIO}x of floor`, floorRate / httpRate <= MAX_FLOOR_RATIO, `ratio ${fixed(floorRate / httpRate, 2)}`))
  const errorCount = [...http.errors.values()].reduce((a, b) => a + b, 0)
  console.log(verdict('no errors', errorCount === 0 && http.sent === s.messages, `${errorCount} errors, ${int(http.sent)}/${int(s.messages)} sent`))
}

// ---------------------------------------------------------------------------------------------
// Over HTTP

interface HttpRun {
  sent: number
  ok: number
  seconds: number
  latenciesMs: number[]
  /** "HTTP 500", "ECONNRESET", …: how many of each. */
  errors: Map<string, number>
  serverCpuSeconds?: number
  clientCpuSeconds: number
}

async function measureHttp(warmup: Payload[], messages: Payload[], s: Settings): Promise<HttpRun> {
  const server = await startPlainServer(s.serverProfileDir)
  try {
    const target: Target = { port: server.port, authorization: `Basic ${Buffer.from(CREDENTIALS).toString('base64')}` }
    // Registering the agents and warming the JIT are not what is measured.
    const registered = await sendAll(target, warmup, s)
    if (registered.errors.size > 0) throw new Error(`warm-up failed: ${describe(registered.errors)}\n${server.output()}`)

    const pid = server.child.pid
    const serverCpuBefore = pid === undefined ? undefined : processCpuSeconds(pid)
    const clientCpuBefore = process.cpuUsage()
    const run = await sendAll(target, messages, s)
    const serverCpuAfter = pid === undefined ? undefined : processCpuSeconds(pid)
    const clientCpu = process.cpuUsage(clientCpuBefore)
    return {
      ...run,
      serverCpuSeconds: serverCpuBefore !== undefined && serverCpuAfter !== undefined ? serverCpuAfter - serverCpuBefore : undefined,
      clientCpuSeconds: (clientCpu.user + clientCpu.system) / 1e6
    }
  } finally {
    const code = await server.stop()
    if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    removeDir(server.dataDir)
  }
}

/**
 * The built server as users run it: `node out/main/server.js`. fork() hands the child this process's
 * execArgv (`--import tsx`, profiler flags) unless told otherwise, and startBuiltServer does not say,
 * so swap in the server's own flags for the duration of the fork.
 */
async function startPlainServer(profileDir: string | undefined): Promise<BuiltServer> {
  const inherited = process.execArgv
  process.execArgv = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
  try {
    return await startBuiltServer({ args: ['--init-collector', CREDENTIALS] })
  } finally {
    process.execArgv = inherited
  }
}

const describe = (errors: Map<string, number>): string => [...errors].map(([what, n]) => `${n} × ${what}`).join(', ')

interface Target { port: number; authorization: string }

/** Sends every payload with `concurrency` requests in flight, until done or the time bound. */
async function sendAll(target: Target, payloads: Payload[], s: Settings): Promise<Omit<HttpRun, 'clientCpuSeconds'>> {
  const latenciesMs: number[] = []
  const errors = new Map<string, number>()
  const deadline = Date.now() + s.maxSeconds * 1000
  let next = 0
  let ok = 0
  const worker = async () => {
    while (next < payloads.length && Date.now() < deadline) {
      const payload = payloads[next++]
      const start = process.hrtime.bigint()
      const outcome = await post(target, payload)
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

/** One POST on a new connection, as Monit does it; 'ok' for a 2xx, else what went wrong. */
function post(target: Target, payload: Payload): Promise<string> {
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/xml',
    'Content-Length': payload.body.length,
    Authorization: target.authorization,
    'User-Agent': 'Monit/5.33.0'
  }
  if (payload.gzip) headers['Content-Encoding'] = 'gzip'
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1', port: target.port, path: '/collector', method: 'POST', headers,
      agent: false, timeout: REQUEST_TIMEOUT_MS
    }, (res) => {
      res.resume()
      res.on('end', () => {
        const status = res.statusCode ?? 0
        resolve(status >= 200 && status < 300 ? 'ok' : `HTTP ${status}`)
      })
    })
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
    req.end(payload.body)
  })
}

/** CPU seconds (user + system) a process has used, from /proc; undefined where there is none. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th, in ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const CLOCK_TICKS_PER_S = 100
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// Floor: the same per-message work without HTTP

interface LoopRun { messages: number; seconds: number }

function measureParseOnly(messages: Payload[]): LoopRun {
  const start = process.hrtime.bigint()
  for (const p of messages) parseMonitMessage(xmlOf(p))
  return { messages: messages.length, seconds: secondsSince(start) }
}

function measureFloor(warmup: Payload[], messages: Payload[]): LoopRun {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  const store = new Store(join(dir, 'overseer.sqlite'))
  try {
    const ingest = new Ingest(store, SecretBox.fromKeyFile(join(dir, 'secret.key')))
    const apply = (p: Payload) => ingest.apply(parseMonitMessage(xmlOf(p)), Date.now())
    // Same starting point as the HTTP run: every agent registered once, untimed.
    warmup.forEach(apply)
    const start = process.hrtime.bigint()
    messages.forEach(apply)
    return { messages: messages.length, seconds: secondsSince(start) }
  } finally {
    store.close()
    removeDir(dir)
  }
}
