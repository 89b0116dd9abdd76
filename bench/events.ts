// Event and uptime report latency at history size (issue 4): reports/events/list with the filters the
// console uses, and reports/uptime/get over one year for one host, against the built server holding
// 10,000 hosts and 10 million stored events, one request at a time over a keep-alive connection.
//
// The data directory is filled in this process before the server starts: the hosts through the
// collector's own ingest (one real Monit payload per agent, as in status.ts), then a year of history
// inserted directly, in date order as the collector would have written it, with one prepared statement
// in large transactions: failure/recovery pairs (state 1 then 0, 1 to 30 minutes apart) of each host's
// real services, some changes (state 2), a few unresolved failures (active = 1, with an open down
// interval), down intervals for a share of the failures, and a few host silences (`Monit` heartbeat
// events and intervals with no service name).
//
// Sizing: BENCH_EVENTS (10,000,000), BENCH_EVENT_HOSTS (10,000), BENCH_EVENT_REQUESTS (100 per case),
// BENCH_MAX_SECONDS (900, bound on the whole benchmark). BENCH_SERVER_PROF_DIR=dir makes the server write
// a V8 CPU profile there. A quick run: BENCH_EVENTS=500000 BENCH_EVENT_HOSTS=2000 npm run bench -- events
import { mkdtempSync } from 'node:fs'
import type { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventClasses, EventClassId, EventState, ServiceType } from '../src/shared/codes'
import { Range } from '../src/shared/ranges'
import { SecretBox } from '../src/server/auth/secret-box'
import { HEARTBEAT_SERVICE } from '../src/server/events/heartbeat-events'
import { Ingest } from '../src/server/collector/ingest'
import { parseMonitMessage } from '../src/server/monit/parse-message'
import { Store } from '../src/server/store/store'
import { loginAs } from '../test/support/api-client'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { asAgent, fixture } from '../test/support/fixtures'
import { sqliteOf } from '../test/support/test-database'
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
  printRows,
  secondsSince,
  timedGet,
  verdict,
  type Benchmark,
  type Target
} from './support'

const EVENT_PAGE_TARGET_P50_MS = 30
const UPTIME_TARGET_P50_MS = 50
const WARMUP_REQUESTS = 10
const ADMIN = { user: 'admin', password: 'benchadmin' }
const DATABASE_FILE = 'overseer.sqlite'
/** 11 services (system, process, file, directory, filesystem, fifo, 2 programs, 2 hosts, network). */
const FIXTURE = '02-status-heartbeat'
/** As in status.ts: an hour's poll keeps every host live (no watchdog rewrites) for the whole run. */
const POLL_SECONDS = 3600
const HOST_BATCH = 500
const EVENT_BATCH = 100_000
const YEAR = 365 * 86_400
/** Share of events that are unresolved failures (active = 1), and of the rest that are changes (state 2). */
const ACTIVE_SHARE = 0.005
const CHANGED_SHARE = 0.1
/** Share of failure/recovery pairs with a down interval: about 100 a host a year at 1,000 events. */
const INTERVAL_SHARE = 0.22
const ACTION_ALERT = 1
const ACTION_RESTART = 2

interface Settings {
  events: number
  hosts: number
  requests: number
  maxSeconds: number
  serverProfileDir?: string
}

function settings(): Settings {
  const s = {
    events: envInt('BENCH_EVENTS', 10_000_000),
    hosts: envInt('BENCH_EVENT_HOSTS', 10_000),
    requests: envInt('BENCH_EVENT_REQUESTS', 100),
    maxSeconds: envInt('BENCH_MAX_SECONDS', 900),
    serverProfileDir: process.env.BENCH_SERVER_PROF_DIR || undefined
  }
  if (s.events / s.hosts < 20) throw new Error('BENCH_EVENTS must be at least 20 per host (BENCH_EVENT_HOSTS)')
  return s
}

export const eventsBenchmark: Benchmark = {
  name: 'events',
  description: 'reports/events/list filtered pages and a one-year reports/uptime/get at 10 M events, 10,000 hosts',
  run: runEventsBenchmark
}

async function runEventsBenchmark(): Promise<void> {
  const s = settings()
  const deadline = new Deadline(s.maxSeconds)
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  try {
    const filled = populate(dataDir, s, deadline)
    printRows(
      [
        ['hosts', `${int(s.hosts)} in ${fixed(filled.hostSeconds, 1)} s (ingest of ${FIXTURE}, poll set to ${POLL_SECONDS} s)`],
        [
          'events',
          `${int(filled.events)} in ${fixed(filled.eventSeconds, 1)} s (${int(filled.events / filled.eventSeconds)} rows/s, ` +
            `${int(EVENT_BATCH)} per transaction, date order); ${int(filled.active)} active, over the last 365 days`
        ],
        ['down intervals', `${int(filled.intervals)} (${int(filled.openIntervals)} open, ${int(filled.silences)} host silences)`],
        ['population', `${fixed(filled.seconds, 1)} s in all; database ${databaseSize(dataDir, DATABASE_FILE)}`]
      ],
      ''
    )

    await measureOnServer(
      { dataDir, databaseFile: DATABASE_FILE, args: ['--init-admin', `${ADMIN.user}:${ADMIN.password}`], profileDir: s.serverProfileDir },
      (server, keepAlive) => measure(server, keepAlive, s, filled, deadline),
      { results: (results) => printResults(results, s), verdicts: printVerdicts }
    )
  } finally {
    removeDir(dataDir)
  }
}

// ---------------------------------------------------------------------------------------------
// Population

const agentId = (host: number): string => `5e7e${host.toString(16).padStart(28, '0')}`
const hostname = (host: number): string => `host-${String(host + 1).padStart(5, '0')}`

interface ServiceInfo {
  nameId: number
  name: string
  type: number
}

interface Filled {
  seconds: number
  hostSeconds: number
  eventSeconds: number
  events: number
  active: number
  intervals: number
  openIntervals: number
  silences: number
  hostIds: number[]
  serviceNameIds: number[]
  /** Services per host, plus the `Monit` item */
  uptimeItems: number
  now: number
}

/** The event classes a service of each type fails on, and those it reports changes of. */
const failClasses: Record<number, readonly number[]> = {
  [ServiceType.Filesystem]: [2, 8192],
  [ServiceType.Directory]: [8, 64],
  [ServiceType.File]: [1, 16, 64],
  [ServiceType.Process]: [512, 512, 2, 262144],
  [ServiceType.RemoteHost]: [32, 32, 16384],
  [ServiceType.System]: [2],
  [ServiceType.Fifo]: [512, 64],
  [ServiceType.Program]: [2097152, 4],
  [ServiceType.Network]: [8388608, 33554432]
}
const changeClasses: Record<number, readonly number[]> = {
  [ServiceType.Filesystem]: [8192],
  [ServiceType.Directory]: [8],
  [ServiceType.File]: [1, 8, 16],
  [ServiceType.Process]: [262144, 524288],
  [ServiceType.RemoteHost]: [65536],
  [ServiceType.System]: [4194304],
  [ServiceType.Fifo]: [8],
  [ServiceType.Program]: [2097152],
  [ServiceType.Network]: [16777216]
}

/** Columns of the generated history, one entry per event (typed arrays: 10 M objects would not fit well). */
class History {
  readonly host: Int32Array
  readonly date: Uint32Array
  /** Index into the host's services; MONIT for the heartbeat */
  readonly service: Uint8Array
  readonly cls: Uint32Array
  readonly state: Uint8Array
  readonly active: Uint8Array
  /** Per host 0, 1, 2…: makes collected_usec unique per host */
  readonly seq: Uint32Array
  length = 0

  constructor(readonly capacity: number) {
    this.host = new Int32Array(capacity)
    this.date = new Uint32Array(capacity)
    this.service = new Uint8Array(capacity)
    this.cls = new Uint32Array(capacity)
    this.state = new Uint8Array(capacity)
    this.active = new Uint8Array(capacity)
    this.seq = new Uint32Array(capacity)
  }

  add(host: number, date: number, service: number, cls: number, state: number, active: number, seq: number): void {
    const i = this.length++
    this.host[i] = host
    this.date[i] = date
    this.service[i] = service
    this.cls[i] = cls
    this.state[i] = state
    this.active[i] = active
    this.seq[i] = seq
  }
}
const MONIT = 255

interface Interval {
  host: number
  nameId: number | null
  start: number
  end: number | null
}

function populate(dataDir: string, s: Settings, deadline: Deadline): Filled {
  const start = process.hrtime.bigint()
  const store = new Store(join(dataDir, DATABASE_FILE))
  try {
    const db = sqliteOf(store)
    addHosts(store, dataDir, s.hosts, deadline)
    const hostSeconds = secondsSince(start)

    const hostIds = (db.prepare('SELECT id FROM host ORDER BY id').all() as { id: number }[]).map((r) => r.id)
    if (hostIds.length !== s.hosts) throw new Error(`expected ${s.hosts} hosts, the database has ${hostIds.length}`)
    const services = new Map<number, ServiceInfo[]>()
    for (const r of db.prepare('SELECT host_id, name_id, name, type FROM service ORDER BY host_id, position').all() as {
      host_id: number
      name_id: number
      name: string
      type: number
    }[]) {
      let list = services.get(r.host_id)
      if (!list) services.set(r.host_id, (list = []))
      list.push({ nameId: r.name_id, name: r.name, type: r.type })
    }
    db.prepare('INSERT OR IGNORE INTO service_name (name) VALUES (?)').run(HEARTBEAT_SERVICE)
    const monitNameId = (db.prepare('SELECT id FROM service_name WHERE name = ?').get(HEARTBEAT_SERVICE) as { id: number }).id

    const now = Math.floor(Date.now() / 1000)
    const generated = generate(hostIds, services, s.events, now)
    deadline.check('generating the event history')

    // This connection only fills the file: a large cache keeps the indexes' pages at hand, and a crash
    // loses nothing that matters. The server opens the file with its own settings.
    db.pragma('cache_size = -1000000')
    db.pragma('synchronous = OFF')
    const eventStart = process.hrtime.bigint()
    insertEvents(store, generated.history, services, monitNameId, deadline)
    insertIntervals(store, generated.intervals)
    updateCounts(store, generated.history, services)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const eventSeconds = secondsSince(eventStart)

    let active = 0
    for (let i = 0; i < generated.history.length; i++) active += generated.history.active[i]
    const firstServices = services.get(hostIds[0])!
    return {
      seconds: secondsSince(start),
      hostSeconds,
      eventSeconds,
      events: generated.history.length,
      active,
      intervals: generated.intervals.length,
      openIntervals: generated.intervals.filter((i) => i.end === null).length,
      silences: generated.intervals.filter((i) => i.nameId === null).length,
      hostIds,
      serviceNameIds: [...new Set(firstServices.map((x) => x.nameId))],
      uptimeItems: firstServices.length + 1,
      now
    }
  } finally {
    store.close()
  }
}

function addHosts(store: Store, dataDir: string, hosts: number, deadline: Deadline): void {
  const template = Buffer.from(
    fixture(FIXTURE)
      .toString('latin1')
      .replace(/<poll>\d+<\/poll>/, `<poll>${POLL_SECONDS}</poll>`),
    'latin1'
  )
  const ingest = new Ingest(store, SecretBox.fromKeyFile(join(dataDir, 'secret.key')))
  const batch = sqliteOf(store).transaction((first: number) => {
    for (let host = first; host < Math.min(hosts, first + HOST_BATCH); host++) {
      ingest.apply(parseMonitMessage(asAgent(template, agentId(host), hostname(host))), Date.now())
    }
  })
  for (let first = 0; first < hosts; first += HOST_BATCH) {
    deadline.check('adding the hosts')
    batch(first)
  }
}

/**
 * A year of history per host, `events / hosts` events each: silences (2 events), unresolved failures
 * (1 event, active, open interval), changes (1 event) and failure/recovery pairs (2 events). Intervals
 * of one host and service never overlap, as the collector keeps them.
 */
function generate(
  hostIds: readonly number[],
  services: ReadonlyMap<number, ServiceInfo[]>,
  events: number,
  now: number
): { history: History; intervals: Interval[] } {
  const random = mulberry32(0xe7e7)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
  const history = new History(events)
  const intervals: Interval[] = []
  const from = now - YEAR

  for (let h = 0; h < hostIds.length; h++) {
    const host = hostIds[h]
    const list = services.get(host) ?? []
    if (list.length === 0) throw new Error(`host ${host} has no services`)
    // The same count for every host, give or take the remainder.
    const n = Math.floor(events / hostIds.length) + (h < events % hostIds.length ? 1 : 0)
    let seq = 0
    let left = n

    // A few silences of the host (1 to 3, 2 to 60 minutes), away from each other.
    const silences = between(1, 3)
    for (let k = 0; k < silences; k++) {
      const span = Math.floor(YEAR / silences)
      const start = from + k * span + between(3600, span - 7200)
      const end = start + between(120, 3600)
      history.add(host, start, MONIT, EventClassId.Heartbeat, EventState.Failed, 0, seq++)
      history.add(host, end, MONIT, EventClassId.Heartbeat, EventState.Succeeded, 0, seq++)
      intervals.push({ host, nameId: null, start, end })
      left -= 2
    }

    // Unresolved failures: at most one per service, in the last 30 days; the service stays down since.
    const openSince = new Map<number, number>()
    const unresolved = Math.min(list.length, Math.floor(n * ACTIVE_SHARE + random()))
    for (let k = 0; k < unresolved; k++) {
      let svc = Math.floor(random() * list.length)
      while (openSince.has(svc)) svc = (svc + 1) % list.length
      const at = now - between(600, 30 * 86_400)
      openSince.set(svc, at)
      history.add(host, at, svc, pick(failClasses[list[svc].type] ?? [2]), EventState.Failed, 1, seq++)
      intervals.push({ host, nameId: list[svc].nameId, start: at, end: null })
      left -= 1
    }

    // Changes, one event each; an odd remainder becomes one more change.
    let changes = Math.round(left * CHANGED_SHARE)
    if ((left - changes) % 2 !== 0) changes++
    for (let k = 0; k < changes; k++) {
      const svc = Math.floor(random() * list.length)
      history.add(host, between(from, now - 60), svc, pick(changeClasses[list[svc].type] ?? [1]), EventState.Changed, 0, seq++)
    }
    left -= changes

    // Failure/recovery pairs in time order, so a down interval can be kept only when its service is up.
    const pairs = left / 2
    const starts = new Float64Array(pairs)
    for (let k = 0; k < pairs; k++) starts[k] = between(from, now - 3600)
    starts.sort()
    const upAgainAt = new Map<number, number>()
    for (let k = 0; k < pairs; k++) {
      const svc = Math.floor(random() * list.length)
      const start = starts[k]
      const end = start + between(60, 1800)
      const cls = pick(failClasses[list[svc].type] ?? [2])
      history.add(host, start, svc, cls, EventState.Failed, 0, seq++)
      history.add(host, end, svc, cls, EventState.Succeeded, 0, seq++)
      const open = openSince.get(svc)
      if (random() < INTERVAL_SHARE && start >= (upAgainAt.get(svc) ?? 0) && (open === undefined || end < open)) {
        intervals.push({ host, nameId: list[svc].nameId, start, end })
        upAgainAt.set(svc, end)
      }
    }
    if (seq !== n) throw new Error(`host ${host}: generated ${seq} events, meant ${n}`)
  }
  return { history, intervals }
}

/** Indexes of the history in date order (by the hour: order within an hour does not matter for the B-trees). */
function dateOrder(history: History): Uint32Array {
  let min = Infinity
  for (let i = 0; i < history.length; i++) min = Math.min(min, history.date[i])
  const bucketOf = (i: number) => Math.floor((history.date[i] - min) / 3600)
  const counts = new Uint32Array(YEAR / 3600 + 2)
  for (let i = 0; i < history.length; i++) counts[bucketOf(i) + 1]++
  for (let b = 1; b < counts.length; b++) counts[b] += counts[b - 1]
  const order = new Uint32Array(history.length)
  for (let i = 0; i < history.length; i++) order[counts[bucketOf(i)]++] = i
  return order
}

function insertEvents(
  store: Store,
  history: History,
  services: ReadonlyMap<number, ServiceInfo[]>,
  monitNameId: number,
  deadline: Deadline
): void {
  const db = sqliteOf(store)
  const insert = db.prepare(`INSERT INTO event (host_id, service_name_id, service_name, service_type, class, state, action,
    message, collected_usec, date, active, dismissed, has_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`)
  const monit: ServiceInfo = { nameId: monitNameId, name: HEARTBEAT_SERVICE, type: ServiceType.System }
  const messages = new Map<string, string>()
  const message = (svc: ServiceInfo, cls: number, state: number) => {
    const key = `${svc.name}\u0000${cls}\u0000${state}`
    let text = messages.get(key)
    if (text === undefined) {
      const c = eventClasses.find((e) => e.id === cls)
      const label = state === EventState.Failed ? c?.failed : state === EventState.Changed ? (c?.changed ?? c?.name) : c?.succeeded
      text =
        cls === EventClassId.Heartbeat
          ? state === EventState.Failed
            ? 'No report from Monit for 300 seconds'
            : 'Monit reports again'
          : `'${svc.name}' ${(label ?? 'event').toLowerCase()}`
      messages.set(key, text)
    }
    return text
  }
  const order = dateOrder(history)
  const batch = db.transaction((first: number) => {
    for (let k = first; k < Math.min(order.length, first + EVENT_BATCH); k++) {
      const i = order[k]
      const svc = history.service[i] === MONIT ? monit : services.get(history.host[i])![history.service[i]]
      const state = history.state[i]
      const action = state === EventState.Failed && svc.type === ServiceType.Process ? ACTION_RESTART : ACTION_ALERT
      insert.run(
        history.host[i],
        svc.nameId,
        svc.name,
        svc.type,
        history.cls[i],
        state,
        action,
        message(svc, history.cls[i], state),
        history.date[i] * 1_000_000 + (history.seq[i] % 1_000_000),
        history.date[i],
        history.active[i]
      )
    }
  })
  for (let first = 0; first < order.length; first += EVENT_BATCH) {
    deadline.check(`inserting events (${int(first)} of ${int(order.length)} done)`)
    batch(first)
  }
}

function insertIntervals(store: Store, intervals: Interval[]): void {
  const db = sqliteOf(store)
  const insert = db.prepare('INSERT INTO state_interval (host_id, service_name_id, start, "end") VALUES (?, ?, ?, ?)')
  const sorted = [...intervals].sort((a, b) => a.start - b.start)
  db.transaction(() => {
    for (const i of sorted) insert.run(i.host, i.nameId, i.start, i.end)
  })()
}

/** host.events_count and service.events_count, as the collector keeps them. */
function updateCounts(store: Store, history: History, services: ReadonlyMap<number, ServiceInfo[]>): void {
  const db = sqliteOf(store)
  const perHost = new Map<number, number>()
  const perService = new Map<string, number>()
  for (let i = 0; i < history.length; i++) {
    const host = history.host[i]
    perHost.set(host, (perHost.get(host) ?? 0) + 1)
    if (history.service[i] !== MONIT) {
      const key = `${host}:${services.get(host)![history.service[i]].nameId}`
      perService.set(key, (perService.get(key) ?? 0) + 1)
    }
  }
  const hostCount = db.prepare('UPDATE host SET events_count = ? WHERE id = ?')
  const serviceCount = db.prepare('UPDATE service SET events_count = ? WHERE host_id = ? AND name_id = ?')
  db.transaction(() => {
    for (const [host, n] of perHost) hostCount.run(n, host)
    for (const [key, n] of perService) {
      const [host, nameId] = key.split(':').map(Number)
      serviceCount.run(n, host, nameId)
    }
  })()
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  key: string
  label: string
  /** Whether the p50 has a target (issue 4), and which */
  targetMs?: number
  path(i: number): string
  /** Whether the answer to request `i` has the expected shape; the number of matching events when a list. */
  valid(json: unknown, i: number): boolean
}

interface CaseResult {
  case: Case
  latenciesMs: number[]
  /** totalRecords of each list answer, to show how many events the filter matched */
  totals: number[]
  failures: number
  firstFailure?: string
}

interface ListRecord {
  id?: number
  date?: number
  hostid?: number
  servicenameid?: number
  state?: number
  active?: number
}
interface ListAnswer {
  records?: ListRecord[]
  totalRecords?: number
  recordsReturned?: number
}
interface UptimeAnswer {
  range?: number
  uptime?: number
  items?: { id?: number; uptime?: number; events?: number }[]
}

const LIST = '/api/2/reports/events/list'
const PAGE = 100

function isPage(json: unknown, each: (r: ListRecord) => boolean): boolean {
  const a = json as ListAnswer | undefined
  if (!a?.records || typeof a.totalRecords !== 'number' || a.totalRecords <= 0) return false
  return a.records.length === Math.min(PAGE, a.totalRecords) && a.records.every(each)
}

function cases(f: Filled, requests: number): Case[] {
  const random = mulberry32(0xe4e4)
  const n = WARMUP_REQUESTS + requests
  const hosts = Array.from({ length: n }, () => f.hostIds[Math.floor(random() * f.hostIds.length)])
  const otherHosts = Array.from({ length: n }, () => f.hostIds[Math.floor(random() * f.hostIds.length)])
  const names = Array.from({ length: n }, () => f.serviceNameIds[Math.floor(random() * f.serviceNameIds.length)])
  const dayFrom = f.now - 86_400
  return [
    {
      key: 'hostid',
      label: 'list hostid=<random host>',
      targetMs: EVENT_PAGE_TARGET_P50_MS,
      path: (i) => `${LIST}?hostid=${hosts[i]}`,
      valid: (json, i) => isPage(json, (r) => r.hostid === hosts[i])
    },
    {
      key: 'active',
      label: 'list active=1',
      path: () => `${LIST}?active=1`,
      valid: (json) => isPage(json, (r) => r.active === 1)
    },
    {
      key: 'day',
      label: 'list datefrom=<now-1d>&dateto=<now>',
      path: () => `${LIST}?datefrom=${dayFrom}&dateto=${f.now}`,
      valid: (json) => isPage(json, (r) => (r.date ?? 0) >= dayFrom && (r.date ?? 0) <= f.now)
    },
    {
      key: 'eventtype',
      label: 'list eventtype=512 (Nonexist)',
      path: () => `${LIST}?eventtype=512`,
      valid: (json) => isPage(json, () => true)
    },
    {
      key: 'host-state',
      label: 'list hostid=<random host>&state=1',
      path: (i) => `${LIST}?hostid=${otherHosts[i]}&state=1`,
      valid: (json, i) => isPage(json, (r) => r.hostid === otherHosts[i] && r.state === 1)
    },
    {
      key: 'servicename',
      label: 'list servicenameid=<random name>',
      path: (i) => `${LIST}?servicenameid=${names[i]}`,
      valid: (json, i) => isPage(json, (r) => r.servicenameid === names[i])
    },
    {
      key: 'uptime',
      label: `uptime/get id=<random host>&range=${Range.Year} (year)`,
      targetMs: UPTIME_TARGET_P50_MS,
      path: (i) => `/api/2/reports/uptime/get?id=${hosts[i]}&range=${Range.Year}`,
      valid: (json) => {
        const a = json as UptimeAnswer | undefined
        return (
          a?.range === Range.Year &&
          typeof a.uptime === 'number' &&
          a.items?.length === f.uptimeItems &&
          a.items.some((item) => (item.events ?? 0) > 0)
        )
      }
    }
  ]
}

async function measure(server: BuiltServer, keepAlive: Agent, s: Settings, f: Filled, deadline: Deadline): Promise<CaseResult[]> {
  const client = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
  if (!client.cookie) throw new Error('login gave no session cookie')
  const target: Target = { port: server.port, cookie: client.cookie, deadline }
  console.log(
    `requests: ${WARMUP_REQUESTS} warm-up then ${int(s.requests)} measured per case, one at a time over keep-alive; ` +
      `pages of ${PAGE} (the default); latency to the last byte of the answer (JSON parsing in the client not counted)`
  )
  const results: CaseResult[] = []
  for (const c of cases(f, s.requests)) results.push(await runCase(target, c, keepAlive, s.requests))
  return results
}

async function runCase(target: Target, c: Case, agent: Agent, requests: number): Promise<CaseResult> {
  const result: CaseResult = { case: c, latenciesMs: [], totals: [], failures: 0 }
  for (let i = 0; i < WARMUP_REQUESTS + requests; i++) {
    target.deadline.check(`measuring "${c.label}"`)
    const sample = await timedGet(target, c.path(i), agent)
    const json = parsed(sample)
    const ok = sample.status === 200 && c.valid(json, i)
    if (!ok) {
      result.failures++
      result.firstFailure ??= `${c.path(i)}: ${sample.status} ${sample.error ?? sample.body.slice(0, 200)}`
    } else if (i >= WARMUP_REQUESTS) {
      result.latenciesMs.push(sample.ms)
      const total = (json as ListAnswer).totalRecords
      if (typeof total === 'number') result.totals.push(total)
    }
  }
  result.latenciesMs.sort((a, b) => a - b)
  result.totals.sort((a, b) => a - b)
  return result
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (n: number): string => fixed(n, 2).padStart(8)

function printResults(results: readonly CaseResult[], s: Settings): void {
  const width = Math.max(...results.map((r) => r.case.label.length))
  console.log(
    `  ${'case'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'max ms'.padStart(8)}  ` +
      `${'matched (p50)'.padStart(13)}  failures`
  )
  for (const r of results) {
    const matched = r.totals.length > 0 ? int(percentile(r.totals, 50)) : '-'
    console.log(
      `  ${r.case.label.padEnd(width)}  ${ms(percentile(r.latenciesMs, 50))}  ${ms(percentile(r.latenciesMs, 99))}  ` +
        `${ms(percentile(r.latenciesMs, 100))}  ${matched.padStart(13)}  ${r.failures} of ${int(WARMUP_REQUESTS + s.requests)}`
    )
    if (r.firstFailure) console.log(`    first failure: ${r.firstFailure}`)
  }
}

function printVerdicts(results: readonly CaseResult[]): void {
  const names: Record<string, string> = {
    hostid: 'filtered event page (reports/events/list hostid=<host>)',
    uptime: 'one-year uptime of one host (reports/uptime/get range=9)'
  }
  for (const r of results) {
    if (r.case.targetMs === undefined) continue
    const p50 = percentile(r.latenciesMs, 50)
    console.log(
      verdict(
        `${names[r.case.key] ?? r.case.label} p50 < ${r.case.targetMs} ms`,
        p50 < r.case.targetMs,
        `p50 ${fixed(p50, 2)} ms, p99 ${fixed(percentile(r.latenciesMs, 99), 2)} ms`
      )
    )
  }
  const failures = results.reduce((n, r) => n + r.failures, 0)
  console.log(verdict('no failed requests', failures === 0, `${failures} failed`))
}
