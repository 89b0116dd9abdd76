// Statistics history at the size of a small office over a year: 100 hosts × 20 services × 5 statistics
// polled every 30 s. Prints the database size, the latency of one-year charts over HTTP, and the
// collector's throughput idle and while the rollup job works.
//
// What is simulated, in compressed time (this process, before the server starts):
// * Every series is a seeded random walk: process CPU % (1 decimal, mean-reverting), memory KB (integer
//   walk), memory % (1 decimal, follows the KB), response time in seconds with 6 decimals (a drifting
//   base with ±30 % jitter, as Monit reports ports), threads (integer, rarely changes).
// * The last 14 days are polled every 30 s: the samples go through the real merge and block encoding
//   into minute blocks (one per hour and series), their minute buckets merged into hour blocks; the
//   last 24 hours are also raw rows, one per host and poll, packed by the collector's own writer.
// * Older time (351 days) steps each walk 4 times an hour with noise scaled to 30 polls; the hour
//   bucket merges those 4 samples and is scaled to 120 polls (count 120, sum × 30): its min and max
//   are a little narrower than 120 real polls would give. Hour buckets merge into day blocks.
// * Blocks are written in the order the rollup writes them (block start, then statistic), so the
//   file's pages are laid out as the job leaves them; progress and retention are stored as the job
//   would have left them at the end of the year.
//
// Sizing: BENCH_HISTORY_HOSTS (100), BENCH_HISTORY_DAYS (365), BENCH_HISTORY_QUERIES (200),
// BENCH_HISTORY_MESSAGES (10000 per collector phase, after a warm-up round of as many), BENCH_HISTORY_ROLL_HOURS (12: raw hours handed
// back to the job for the "while a rollup runs" phase), BENCH_MAX_SECONDS (120, bound per phase).
import { mkdtempSync, statSync } from 'node:fs'
import { Agent as HttpAgent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { Stat } from '../src/shared/codes'
import { encodeBlock } from '../src/server/history/block-codec'
import { mergeBucket, sampleBucket, type Bucket } from '../src/server/history/buckets'
import { blockStart, DAY, HOUR, nextBlockStart, slotOf } from '../src/server/domain/history-levels'
import { RawSampleWriter } from '../src/server/history/raw-samples'
import { ROLL_GRACE_SECONDS } from '../src/server/history/rollup'
import { Store } from '../src/server/store/store'
import { loginAs } from '../test/support/api-client'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { buildTraffic, type Payload } from './collector-payloads'
import { serviceState } from '../test/support/service-state'
import { sqliteOf } from '../test/support/test-database'
import {
  Deadline,
  envInt,
  fixed,
  int,
  mib,
  mulberry32,
  parsed,
  percentile,
  printRows,
  secondsSince,
  startPlainServer,
  timedGet,
  verdict,
  type Benchmark,
  type Target
} from './support'

const SIZE_TARGET_BYTES = 2 * 2 ** 30
const QUERY_TARGET_P50_MS = 50
const MAX_THROUGHPUT_DROP = 0.2
const SERVICES_PER_HOST = 20
const POLL = 30
const RECENT_DAYS = 14
const RAW_HOURS = 24
const OLD_SAMPLES_PER_HOUR = 4
const ADMIN = { user: 'admin', password: 'benchadmin' }
const COLLECTOR = 'bench:bench'
const DATABASE_FILE = 'overseer.sqlite'
const BATCH = 5000

interface Settings {
  hosts: number
  days: number
  queries: number
  messages: number
  rollHours: number
  maxSeconds: number
}

function settings(): Settings {
  return {
    hosts: envInt('BENCH_HISTORY_HOSTS', 100),
    days: envInt('BENCH_HISTORY_DAYS', 365),
    queries: envInt('BENCH_HISTORY_QUERIES', 200),
    messages: envInt('BENCH_HISTORY_MESSAGES', 10_000),
    rollHours: envInt('BENCH_HISTORY_ROLL_HOURS', 12),
    maxSeconds: envInt('BENCH_MAX_SECONDS', 120)
  }
}

export const historyBenchmark: Benchmark = {
  name: 'history',
  description: 'a simulated year of history: database size, one-year chart latency, collector throughput during a rollup',
  run: runHistoryBenchmark
}

async function runHistoryBenchmark(): Promise<void> {
  const s = settings()
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-history-'))
  try {
    const started = process.hrtime.bigint()
    const population = populate(join(dataDir, DATABASE_FILE), s)
    const bytes = statSync(join(dataDir, DATABASE_FILE)).size
    console.log(
      `simulated: ${int(s.hosts)} hosts × ${SERVICES_PER_HOST} services × ${SERIES_KINDS.length} statistics ` +
        `(${int(population.series)} series) over ${s.days} days at ${POLL} s, in ${fixed(secondsSince(started), 0)} s`
    )
    printRows([
      [
        'rows',
        `raw ${int(population.rows.raw)}, minute blocks ${int(population.rows.minute)}, ` +
          `hour blocks ${int(population.rows.hour)}, day blocks ${int(population.rows.day)}`
      ],
      ['database size', `${mib(bytes)} (${fixed(bytes / population.buckets, 2)} bytes per stored bucket or sample overall)`]
    ])
    const server = await startPlainServer(dataDir, ['--init-admin', `${ADMIN.user}:${ADMIN.password}`, '--init-collector', COLLECTOR])
    try {
      const charts = await measureCharts(server, population, s)
      // The same messages in each phase, moved later in time so that every one is a newer snapshot than
      // its agent's last (a repeated one would skip the service writes and flatter the later phase);
      // an unmeasured round first warms the server's collector path up.
      const traffic = buildTraffic(1000, s.messages)
      await sendAll(collectorTarget(server), traffic.warmup, s.maxSeconds)
      await sendAll(collectorTarget(server), later(traffic.messages, 1), s.maxSeconds)
      const idle = await measureCollector(server, later(traffic.messages, 2), s, 'idle', 0)
      const busy = await measureCollector(server, later(traffic.messages, 3), s, 'rollup', s.rollHours)
      printVerdicts(bytes, charts, idle, busy)
    } finally {
      const code = await server.stop()
      if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    }
  } finally {
    removeDir(dataDir)
  }
}

// ---------------------------------------------------------------------------------------------
// The simulated year

interface SeriesKind {
  type: number
  /** Decimals of the values, as the agent reports them */
  decimals: number
  start: (r: () => number) => number
  step: (v: number, noise: number, r: () => number) => number
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

const SERIES_KINDS: readonly SeriesKind[] = [
  {
    type: Stat.ProcessCpuPercent,
    decimals: 1,
    start: (r) => round(r() * 30, 1),
    step: (v, n) => round(clamp(v + (15 - v) * 0.02 + n * 1.5, 0, 100), 1)
  },
  {
    type: Stat.ProcessMemoryKilobyte,
    decimals: 0,
    start: (r) => Math.round(100_000 + r() * 2_000_000),
    step: (v, n) => Math.max(1000, Math.round(v + n * 800))
  },
  { type: Stat.ProcessMemoryPercent, decimals: 1, start: (r) => round(r() * 10, 1), step: (v, n) => round(clamp(v + n * 0.05, 0, 100), 1) },
  {
    type: Stat.PortResponseTime,
    decimals: 6,
    start: (r) => round(0.0005 + r() * 0.02, 6),
    step: (v, n, r) => round(clamp(v * (1 + n * 0.01), 0.00005, 5) * (0.85 + r() * 0.3), 6)
  },
  {
    type: Stat.Threads,
    decimals: 0,
    start: (r) => 1 + Math.floor(r() * 40),
    step: (v, _n, r) => (r() < 0.002 ? Math.max(1, v + (r() < 0.5 ? -1 : 1)) : v)
  }
]

interface Walk {
  id: number
  kind: SeriesKind
  value: number
  base: number
}

interface Population {
  series: number
  buckets: number
  rows: { raw: number; minute: number; hour: number; day: number }
  /** A service of each host, with its id: what the chart queries ask for. */
  services: { hostId: number; serviceId: number }[]
}

function populate(file: string, s: Settings): Population {
  const store = new Store(file)
  const random = mulberry32(42)
  const noise = () => random() + random() + random() - 1.5
  const now = Math.floor(Date.now() / 1000)
  const rolledMinute = blockStart('minute', now - ROLL_GRACE_SECONDS)
  const rolledHour = blockStart('hour', rolledMinute)
  const rolledDay = blockStart('day', rolledHour)
  const from = blockStart('hour', now - s.days * DAY)
  const recentFrom = rolledMinute - RECENT_DAYS * DAY
  const rawFrom = blockStart('minute', now - RAW_HOURS * HOUR)
  const { history } = store
  const population: Population = { series: 0, buckets: 0, rows: { raw: 0, minute: 0, hour: 0, day: 0 }, services: [] }

  // Hosts, services and statistic ids, as the collector registers them.
  const hosts: { id: number; walks: Walk[] }[] = []
  store.transaction(() => {
    for (let h = 0; h < s.hosts; h++) {
      const host = store.hosts.register(`51a1${h.toString(16).padStart(28, '0')}`, `office-${h}`, from)
      const walks: Walk[] = []
      for (let v = 0; v < SERVICES_PER_HOST; v++) {
        const serviceId = store.services.insert(host.id, serviceState(store, `service-${v}`, v))
        if (v === 0) population.services.push({ hostId: host.id, serviceId })
        for (const kind of SERIES_KINDS) {
          const value = kind.start(random)
          walks.push({ id: history.series.register(serviceId, kind.type, ''), kind, value, base: value })
        }
      }
      hosts.push({ id: host.id, walks })
    }
  })
  const walks = hosts.flatMap((h) => h.walks)
  population.series = walks.length

  let pending = 0
  sqliteOf(store).exec('BEGIN')
  const written = () => {
    if (++pending < BATCH) return
    sqliteOf(store).exec('COMMIT; BEGIN')
    pending = 0
  }
  const hourBuckets = new Map<number, Bucket[]>(walks.map((w) => [w.id, []]))
  const dayBuckets = new Map<number, Bucket[]>(walks.map((w) => [w.id, []]))
  const rawValues = new Map<number, number[]>()
  const writer = new RawSampleWriter()

  for (let hour = from; hour < now; hour += HOUR) {
    const recent = hour >= recentFrom
    for (const host of hosts) {
      for (const walk of host.walks) {
        let bucket: Bucket
        if (recent) {
          const values = Array.from({ length: HOUR / POLL }, () => (walk.value = walk.kind.step(walk.value, noise(), random)))
          if (hour >= rawFrom) rawValues.set(walk.id, values)
          const minutes: Bucket[] = []
          for (let i = 0; i < values.length; i += 2) {
            const t = hour + i * POLL
            minutes.push(mergeBucket(t, sampleBucket(t, values[i]), sampleBucket(t + POLL, values[i + 1])))
          }
          if (hour < rolledMinute) {
            history.blocks.put(
              'minute',
              hour,
              walk.id,
              encodeBlock(minutes, (t) => slotOf('minute', hour, t))
            )
            population.rows.minute++
            population.buckets += minutes.length
            written()
          }
          bucket = fold(hour, minutes, walk.kind.decimals)
        } else {
          const scale = Math.sqrt(HOUR / POLL / OLD_SAMPLES_PER_HOUR)
          const samples = Array.from(
            { length: OLD_SAMPLES_PER_HOUR },
            () => (walk.value = walk.kind.step(walk.value, noise() * scale, random))
          )
          const merged = fold(
            hour,
            samples.map((v) => sampleBucket(hour, v)),
            walk.kind.decimals
          )
          const factor = HOUR / POLL / OLD_SAMPLES_PER_HOUR
          bucket = { ...merged, count: HOUR / POLL, sum: round(merged.sum * factor, 6) }
        }
        hourBuckets.get(walk.id)!.push(bucket)
      }
      if (hour >= rawFrom) {
        for (let i = 0; i < HOUR / POLL && hour + i * POLL < now; i++) {
          writer.reset()
          for (const walk of host.walks) writer.add(walk.id, rawValues.get(walk.id)![i])
          history.raw.append(host.id, hour + i * POLL, writer.finish()!)
          population.rows.raw++
          population.buckets += host.walks.length
          written()
        }
      }
    }
    const nextHour = hour + HOUR
    if (nextHour % DAY === 0 || nextHour >= now) flushDay(blockStart('hour', hour), nextHour >= now)
  }
  sqliteOf(store).exec('COMMIT')

  // Where the job would stand at the end of the year, and retention long enough for the whole year.
  store.transaction(() => {
    history.settings.setRolledUntil('minute', rolledMinute)
    history.settings.setRolledUntil('hour', rolledHour)
    history.settings.setRolledUntil('day', rolledDay)
    history.settings.setLateScanId(history.raw.newest())
  })
  sqliteOf(store).pragma('wal_checkpoint(TRUNCATE)')
  store.close()
  return population

  /** Writes the day's hour blocks (days before the rolled one) and, at a month's end, its day blocks. */
  function flushDay(day: number, last: boolean): void {
    if (day < rolledHour) {
      for (const walk of walks) {
        const buckets = hourBuckets.get(walk.id)!
        history.blocks.put(
          'hour',
          day,
          walk.id,
          encodeBlock(buckets, (t) => slotOf('hour', day, t))
        )
        population.rows.hour++
        population.buckets += buckets.length
        written()
        dayBuckets.get(walk.id)!.push(fold(day, buckets, walk.kind.decimals))
      }
    }
    for (const buckets of hourBuckets.values()) buckets.length = 0
    const month = blockStart('day', day)
    if (!last && nextBlockStart('day', month) === day + DAY && month < rolledDay) {
      for (const walk of walks) {
        const buckets = dayBuckets.get(walk.id)!
        if (buckets.length === 0) continue
        history.blocks.put(
          'day',
          month,
          walk.id,
          encodeBlock(buckets, (t) => slotOf('day', month, t))
        )
        population.rows.day++
        population.buckets += buckets.length
        written()
        buckets.length = 0
      }
    }
  }
}

/**
 * The buckets merged into one, as mergeBucket does, with the sum taken on the series' known decimal grid
 * (mergeBucket finds the grid per value; here it is known, which keeps a year's simulation fast).
 */
function fold(time: number, buckets: readonly Bucket[], decimals: number): Bucket {
  const p = 10 ** decimals
  let count = 0
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  let scaled = 0
  for (const b of buckets) {
    count += b.count
    if (b.min < min) min = b.min
    if (b.max > max) max = b.max
    scaled += Math.round(b.sum * p)
  }
  return { time, count, min, max, sum: scaled / p }
}

// ---------------------------------------------------------------------------------------------
// One-year charts over HTTP

interface ChartRun {
  latenciesMs: number[]
  points: number
  errors: number
}

async function measureCharts(server: BuiltServer, population: Population, s: Settings): Promise<ChartRun> {
  const client = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
  if (!client.cookie) throw new Error('login gave no session cookie')
  const target: Target = { port: server.port, cookie: client.cookie, deadline: new Deadline(s.maxSeconds) }
  const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 1 })
  const random = mulberry32(7)
  const run: ChartRun = { latenciesMs: [], points: 0, errors: 0 }
  try {
    for (let i = 0; i < s.queries + 10; i++) {
      target.deadline.check('querying one-year charts')
      const { hostId, serviceId } = population.services[Math.floor(random() * population.services.length)]
      const sample = await timedGet(target, `/api/2/reports/analytics/get?hostid=${hostId}&serviceid=${serviceId}&range=9`, keepAlive)
      const answer = parsed(sample) as { series?: { points: unknown[] }[] } | undefined
      if (sample.status !== 200 || answer?.series?.length !== SERIES_KINDS.length) {
        run.errors++
        continue
      }
      // The first ten warm the server up.
      if (i < 10) continue
      run.latenciesMs.push(sample.ms)
      run.points = Math.max(run.points, ...answer.series.map((x) => x.points.length))
    }
  } finally {
    keepAlive.destroy()
  }
  run.latenciesMs.sort((a, b) => a - b)
  console.log('one-year chart (reports/analytics/get, range 9, one service: 5 series), one request at a time, keep-alive:')
  printRows([
    ['requests', `${run.latenciesMs.length} measured after 10 warm-up, ${run.errors} errors`],
    ['points per series', `${run.points} (at most)`],
    ['latency p50', `${fixed(percentile(run.latenciesMs, 50), 2)} ms`],
    ['latency p99', `${fixed(percentile(run.latenciesMs, 99), 2)} ms`]
  ])
  return run
}

// ---------------------------------------------------------------------------------------------
// Collector throughput, idle and while the rollup job works

interface CollectorRun {
  ok: number
  sent: number
  seconds: number
  errors: number
  rolledHours?: number
  stillRolling?: boolean
}

/** The messages of round `round`, their collection times moved that many weeks later. */
function later(payloads: readonly Payload[], round: number): Payload[] {
  const shift = round * 7 * DAY
  return payloads.map((p) => {
    const xml = (p.gzip ? gunzipSync(p.body) : p.body)
      .toString('latin1')
      .replace(/<collected_sec>(\d+)<\/collected_sec>/g, (_m, sec: string) => `<collected_sec>${Number(sec) + shift}</collected_sec>`)
    const body = Buffer.from(xml, 'latin1')
    return { body: p.gzip ? gzipSync(body) : body, gzip: p.gzip }
  })
}

const collectorTarget = (server: BuiltServer) => ({
  port: server.port,
  authorization: `Basic ${Buffer.from(COLLECTOR).toString('base64')}`
})

async function measureCollector(
  server: BuiltServer,
  messages: Payload[],
  s: Settings,
  phase: 'idle' | 'rollup',
  rollHours: number
): Promise<CollectorRun> {
  const store = new Store(join(server.dataDir, DATABASE_FILE))
  let before = 0
  try {
    if (phase === 'rollup') {
      // Hands the last hours back to the job, which rolls them again (replacing identical blocks),
      // and waits for it to start on its next pass.
      before = store.history.settings.progress().rolledUntil.minute! - rollHours * HOUR
      store.history.settings.setRolledUntil('minute', before)
      await new Promise((resolve) => setTimeout(resolve, 6000))
    }
    const run: CollectorRun = await sendAll(collectorTarget(server), messages, s.maxSeconds)
    if (phase === 'rollup') {
      const after = store.history.settings.progress().rolledUntil.minute!
      run.rolledHours = (after - before) / HOUR
      run.stillRolling = after < before + rollHours * HOUR
    }
    console.log(
      `collector over HTTP, ${phase === 'idle' ? 'rollup job idle' : `while the job rolls ${rollHours} hours of raw rows again`} ` +
        '(1000 agents, real payloads, gzipped, a new connection per message, 32 concurrent):'
    )
    printRows([
      ['messages', `${int(run.ok)} ok of ${int(run.sent)} sent, ${run.errors} errors, in ${fixed(run.seconds, 2)} s`],
      ['throughput', `${int(run.ok / run.seconds)} msg/s`],
      ...(phase === 'rollup'
        ? [
            [
              'rollup',
              `${fixed(run.rolledHours!, 0)} of ${rollHours} hours rolled during the run${run.stillRolling ? ' (busy throughout)' : ' (finished before the end)'}`
            ] as const
          ]
        : [])
    ])
    return run
  } finally {
    store.close()
  }
}

async function sendAll(target: { port: number; authorization: string }, payloads: Payload[], maxSeconds: number): Promise<CollectorRun> {
  const deadline = Date.now() + maxSeconds * 1000
  let next = 0
  let ok = 0
  let errors = 0
  const worker = async () => {
    while (next < payloads.length && Date.now() < deadline) {
      if (await post(target, payloads[next++])) ok++
      else errors++
    }
  }
  const start = process.hrtime.bigint()
  await Promise.all(Array.from({ length: 32 }, worker))
  return { ok, sent: next, seconds: secondsSince(start), errors }
}

function post(target: { port: number; authorization: string }, payload: Payload): Promise<boolean> {
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/xml',
    'Content-Length': payload.body.length,
    Authorization: target.authorization,
    'User-Agent': 'Monit/5.33.0'
  }
  if (payload.gzip) headers['Content-Encoding'] = 'gzip'
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, path: '/collector', method: 'POST', headers, agent: false, timeout: 10_000 },
      (res) => {
        res.resume()
        res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300))
      }
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(false))
    req.end(payload.body)
  })
}

function printVerdicts(bytes: number, charts: ChartRun, idle: CollectorRun, busy: CollectorRun): void {
  const p50 = percentile(charts.latenciesMs, 50)
  const idleRate = idle.ok / idle.seconds
  const busyRate = busy.ok / busy.seconds
  const drop = 1 - busyRate / idleRate
  console.log(verdict('database < 2 GB', bytes < SIZE_TARGET_BYTES, mib(bytes)))
  console.log(
    verdict(
      `one-year chart p50 < ${QUERY_TARGET_P50_MS} ms`,
      p50 < QUERY_TARGET_P50_MS && charts.errors === 0,
      `${fixed(p50, 2)} ms, ${charts.errors} errors`
    )
  )
  console.log(
    verdict(
      'collector during a rollup within 20 % of idle',
      drop <= MAX_THROUGHPUT_DROP && busy.errors === 0 && idle.errors === 0,
      `${int(busyRate)} vs ${int(idleRate)} msg/s idle (${fixed(drop * 100, 1)} % lower)`
    )
  )
}
