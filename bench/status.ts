// Status read latency at fleet size: status/hosts/list (a page of 1000), status/hosts/get and the newest
// page of reports/events/list (the population's events: a third of the hosts report a failure) against
// the built server holding 10,000 hosts, one request at a time (latency, not throughput), over a
// keep-alive connection as the console and most clients use, and over a new connection per request.
//
// The data directory is filled in this process before the server starts (the collector's own ingest,
// one real Monit payload per agent), which is much faster than posting 10,000 messages over HTTP.
//
// Sizing: BENCH_STATUS_HOSTS (10000), BENCH_STATUS_REQUESTS (200 per case), BENCH_MAX_SECONDS (180, bound
// on the whole benchmark). BENCH_SERVER_PROF_DIR=dir makes the server write a V8 CPU profile there.
import { mkdtempSync } from 'node:fs'
import type { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SecretBox } from '../src/server/auth/secret-box'
import { Ingest } from '../src/server/collector/ingest'
import { parseMonitMessage } from '../src/server/monit/parse-message'
import { Store } from '../src/server/store/store'
import { loginAs } from '../test/support/api-client'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { asAgent, fixture } from '../test/support/fixtures'
import {
  Deadline,
  databaseSize,
  envInt,
  fixed,
  int,
  mulberry32,
  parsed,
  percentile,
  measureOnServer,
  secondsSince,
  timedGet,
  verdict,
  type Benchmark,
  type Target
} from './support'

const LIST_TARGET_P50_MS = 15
const GET_TARGET_P50_MS = 5
const PAGE_SIZE = 1000
const WARMUP_REQUESTS = 20
const ADMIN = { user: 'admin', password: 'benchadmin' }
const DATABASE_FILE = 'overseer.sqlite'
/** Hosts take turns among these real payloads, so LEDs, statuses and events differ from host to host. */
export const FIXTURES = ['02-status-heartbeat', '13-status-invalid-xml-control-chars', '03-event-process-not-running']
/**
 * The fixtures' agents poll every 5 s, so every host would turn silent 15 s after it was filled in and the
 * heartbeat watchdog would rewrite 10,000 hosts in the middle of the measurement. An hour's poll keeps
 * every host live for the whole run.
 */
const POLL_SECONDS = 3600
/** Hosts filled in per outer transaction. */
const POPULATION_BATCH = 500

interface Settings {
  hosts: number
  requests: number
  maxSeconds: number
  serverProfileDir?: string
}

function settings(): Settings {
  return {
    hosts: envInt('BENCH_STATUS_HOSTS', 10_000),
    requests: envInt('BENCH_STATUS_REQUESTS', 200),
    maxSeconds: envInt('BENCH_MAX_SECONDS', 180),
    serverProfileDir: process.env.BENCH_SERVER_PROF_DIR || undefined
  }
}

export const statusBenchmark: Benchmark = {
  name: 'status',
  description: 'status/hosts/list (page of 1000), status/hosts/get and a page of events: latency at 10,000 hosts',
  run: runStatusBenchmark
}

async function runStatusBenchmark(): Promise<void> {
  await measureStatus()
}

/** p50 latencies over a keep-alive connection, in ms: the list over all pages, one host, a page of events. */
export interface StatusP50s {
  list: number
  get: number
  events: number
}

/**
 * Fills a database with the hosts (SQLite's file in the data folder, or the PostgreSQL `database`), then
 * measures the server on it.
 */
export async function measureStatus(database?: string): Promise<StatusP50s> {
  const s = settings()
  const deadline = new Deadline(s.maxSeconds)
  // Our own data dir, so it is removed even when the server fails to start.
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  try {
    const filled = populate(dataDir, s.hosts, deadline, database)
    console.log(
      `population: ${int(s.hosts)} hosts in ${fixed(filled.seconds, 2)} s ` +
        `(${int(s.hosts / filled.seconds)} hosts/s, ingest in this process, ${POPULATION_BATCH} per transaction), ` +
        `payloads ${FIXTURES.join(', ')} in turn, poll set to ${POLL_SECONDS} s; ` +
        `database ${database === undefined ? databaseSize(dataDir, DATABASE_FILE) : 'PostgreSQL'}`
    )
    const engineArgs = database === undefined ? [] : ['--database', database]
    const results = await measureOnServer(
      {
        dataDir,
        databaseFile: DATABASE_FILE,
        args: ['--init-admin', `${ADMIN.user}:${ADMIN.password}`, ...engineArgs],
        profileDir: s.serverProfileDir
      },
      (server, keepAlive) => measure(server, keepAlive, s, deadline),
      { results: (results) => printResults(results, s), verdicts: printVerdicts }
    )
    const p50 = (key: Case['key']) => percentile(keepAliveCase(results, key).latenciesMs, 50)
    return { list: p50('list-pages'), get: p50('get'), events: p50('events') }
  } finally {
    removeDir(dataDir)
  }
}

// ---------------------------------------------------------------------------------------------
// Population

const agentId = (host: number): string => `5a7a${host.toString(16).padStart(28, '0')}`
const hostname = (host: number): string => `host-${String(host + 1).padStart(5, '0')}`

/** Fills a fresh data directory with `hosts` hosts (FIXTURES in turn); the console benchmark fills its own with it. */
export function populate(dataDir: string, hosts: number, deadline: Deadline, database?: string): { seconds: number } {
  const templates = FIXTURES.map((name) =>
    Buffer.from(
      fixture(name)
        .toString('latin1')
        .replace(/<poll>\d+<\/poll>/, `<poll>${POLL_SECONDS}</poll>`),
      'latin1'
    )
  )
  const start = process.hrtime.bigint()
  const store = new Store(database ?? join(dataDir, DATABASE_FILE))
  try {
    const ingest = new Ingest(store, SecretBox.fromKeyFile(join(dataDir, 'secret.key')))
    // Each message's transaction nests (a savepoint) in one per batch: the same rows, fewer commits.
    const batch = (first: number) =>
      store.sql.transaction(() => {
        for (let host = first; host < Math.min(hosts, first + POPULATION_BATCH); host++) {
          const xml = asAgent(templates[host % templates.length], agentId(host), hostname(host))
          ingest.apply(parseMonitMessage(xml), Date.now())
        }
      })
    for (let first = 0; first < hosts; first += POPULATION_BATCH) {
      deadline.check('filling the database')
      batch(first)
    }
    // A fleet that grew over days has been vacuumed and analysed by PostgreSQL's autovacuum; one filled
    // in a minute has not, and autovacuum would then run during the measurement.
    if (store.sql.engine === 'postgres') store.sql.execute('VACUUM ANALYZE')
  } finally {
    store.close()
  }
  return { seconds: secondsSince(start) }
}

// ---------------------------------------------------------------------------------------------
// Cases (timedGet and the deadline are in support.ts, shared with the events benchmark)

type Mode = 'keep-alive' | 'new connection'
const MODES: readonly Mode[] = ['keep-alive', 'new connection']

interface Case {
  key: 'list' | 'list-pages' | 'list-cpu' | 'get' | 'events'
  label: string
  /** The path of request `i` (warm-up included). */
  path(i: number): string
  /** Whether the answer to request `i` has the expected shape. */
  valid(json: unknown, i: number): boolean
}

interface CaseResult {
  case: Case
  mode: Mode
  latenciesMs: number[]
  failures: number
  /** The first failure, to show what went wrong. */
  firstFailure?: string
}

interface ListAnswer {
  records?: { id: number }[]
  totalRecords?: number
}
interface GetAnswer {
  records?: { host?: { id?: number; services?: unknown[] } }
}

function cases(hosts: number, ids: readonly number[], requests: number): Case[] {
  const pages = Math.ceil(hosts / PAGE_SIZE)
  const startOf = (i: number) => (i % pages) * PAGE_SIZE
  const pageLength = (start: number) => Math.min(PAGE_SIZE, hosts - start)
  const isPage = (json: unknown, start: number) => (json as ListAnswer | undefined)?.records?.length === pageLength(start)
  // A fixed seed: every run asks for the same hosts in the same order.
  const random = mulberry32(0x5747)
  const hostIds = Array.from({ length: WARMUP_REQUESTS + requests }, () => ids[Math.floor(random() * ids.length)])
  return [
    {
      key: 'list',
      label: `list results=${PAGE_SIZE} (first page)`,
      path: () => `/api/2/status/hosts/list?results=${PAGE_SIZE}`,
      valid: (json) => isPage(json, 0)
    },
    {
      key: 'list-pages',
      label: `list results=${PAGE_SIZE}, startindex over ${pages} pages`,
      path: (i) => `/api/2/status/hosts/list?results=${PAGE_SIZE}&startindex=${startOf(i)}`,
      valid: (json, i) => isPage(json, startOf(i))
    },
    {
      key: 'list-cpu',
      label: `list sort=cpu&dir=desc, startindex over ${pages} pages (no index)`,
      path: (i) => `/api/2/status/hosts/list?results=${PAGE_SIZE}&startindex=${startOf(i)}&sort=cpu&dir=desc`,
      valid: (json, i) => isPage(json, startOf(i))
    },
    {
      key: 'get',
      label: 'get id=<random host>',
      path: (i) => `/api/2/status/hosts/get?id=${hostIds[i % hostIds.length]}`,
      valid: (json, i) => {
        const host = (json as GetAnswer | undefined)?.records?.host
        return host?.id === hostIds[i % hostIds.length] && (host.services?.length ?? 0) > 0
      }
    },
    {
      key: 'events',
      label: `events list results=${EVENTS_PAGE_SIZE} (newest first)`,
      path: () => `/api/2/reports/events/list?results=${EVENTS_PAGE_SIZE}`,
      valid: (json) => (json as { records?: unknown[] } | undefined)?.records?.length === EVENTS_PAGE_SIZE
    }
  ]
}

/** A page of the events list, as the console's events screen asks for. */
const EVENTS_PAGE_SIZE = 100

async function measure(server: BuiltServer, keepAlive: Agent, s: Settings, deadline: Deadline): Promise<CaseResult[]> {
  const client = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
  if (!client.cookie) throw new Error('login gave no session cookie')
  const target: Target = { port: server.port, cookie: client.cookie, deadline }
  const ids = await allHostIds(target, keepAlive, s.hosts)
  console.log(
    `requests: ${WARMUP_REQUESTS} warm-up then ${int(s.requests)} measured per case and connection, one at a time; ` +
      'latency to the last byte of the answer (JSON parsing in the client not counted)'
  )

  const results: CaseResult[] = []
  for (const c of cases(s.hosts, ids, s.requests)) {
    for (const mode of MODES) {
      results.push(await runCase(target, c, mode === 'keep-alive' ? keepAlive : false, mode, s.requests))
    }
  }
  return results
}

/** Every host's id, read page by page through the API (which also checks the total). */
async function allHostIds(target: Target, agent: Agent, hosts: number): Promise<number[]> {
  const ids: number[] = []
  for (let start = 0; start < hosts; start += PAGE_SIZE) {
    target.deadline.check('reading the host ids')
    const sample = await timedGet(target, `/api/2/status/hosts/list?results=${PAGE_SIZE}&startindex=${start}&sort=hostname`, agent)
    const json = parsed(sample) as ListAnswer | undefined
    if (sample.status !== 200 || !json?.records)
      throw new Error(`status/hosts/list failed: ${sample.status} ${sample.error ?? sample.body.slice(0, 200)}`)
    if (json.totalRecords !== hosts) throw new Error(`expected ${hosts} hosts, the server has ${json.totalRecords}`)
    ids.push(...json.records.map((r) => r.id))
  }
  if (new Set(ids).size !== hosts) throw new Error(`paging returned ${new Set(ids).size} distinct hosts of ${hosts}`)
  return ids
}

async function runCase(target: Target, c: Case, agent: Agent | false, mode: Mode, requests: number): Promise<CaseResult> {
  const result: CaseResult = { case: c, mode, latenciesMs: [], failures: 0 }
  for (let i = 0; i < WARMUP_REQUESTS + requests; i++) {
    target.deadline.check(`measuring "${c.label}" (${mode})`)
    const sample = await timedGet(target, c.path(i), agent)
    const ok = sample.status === 200 && c.valid(parsed(sample), i)
    if (!ok) {
      result.failures++
      result.firstFailure ??= `${c.path(i)}: ${sample.status} ${sample.error ?? sample.body.slice(0, 200)}`
    } else if (i >= WARMUP_REQUESTS) {
      result.latenciesMs.push(sample.ms)
    }
  }
  result.latenciesMs.sort((a, b) => a - b)
  return result
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (n: number): string => fixed(n, 2).padStart(8)

function printResults(results: readonly CaseResult[], s: Settings): void {
  const width = Math.max(...results.map((r) => r.case.label.length))
  const modeWidth = Math.max(...MODES.map((m) => m.length))
  console.log(
    `  ${'case'.padEnd(width)}  ${'connection'.padEnd(modeWidth)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ` +
      `${'max ms'.padStart(8)}  failures`
  )
  for (const r of results) {
    const label = r.mode === MODES[0] ? r.case.label : ''
    console.log(
      `  ${label.padEnd(width)}  ${r.mode.padEnd(modeWidth)}  ${ms(percentile(r.latenciesMs, 50))}  ` +
        `${ms(percentile(r.latenciesMs, 99))}  ${ms(percentile(r.latenciesMs, 100))}  ` +
        `${r.failures} of ${int(WARMUP_REQUESTS + s.requests)}`
    )
    if (r.firstFailure) console.log(`    first failure: ${r.firstFailure}`)
  }
}

const keepAliveCase = (results: readonly CaseResult[], key: Case['key']): CaseResult =>
  results.find((r) => r.case.key === key && r.mode === 'keep-alive')!

function printVerdicts(results: readonly CaseResult[]): void {
  const keepAlive = (key: Case['key']) => keepAliveCase(results, key)
  const target = (name: string, r: CaseResult, limitMs: number) => {
    const p50 = percentile(r.latenciesMs, 50)
    console.log(
      verdict(
        `${name} p50 < ${limitMs} ms (keep-alive)`,
        p50 < limitMs,
        `p50 ${fixed(p50, 2)} ms, p99 ${fixed(percentile(r.latenciesMs, 99), 2)} ms`
      )
    )
  }
  target(`status/hosts/list page of ${PAGE_SIZE}, all pages`, keepAlive('list-pages'), LIST_TARGET_P50_MS)
  target('status/hosts/get', keepAlive('get'), GET_TARGET_P50_MS)
  const failures = results.reduce((n, r) => n + r.failures, 0)
  console.log(verdict('no failed requests', failures === 0, `${failures} failed`))
}
