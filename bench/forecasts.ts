// Forecasts at fleet size (issue 30 §3), on SQLite and on PostgreSQL:
// * reports/forecasts/list ("running out", soonest first) over HTTP at the console's host count, every
//   resource series of every host with a stored forecast (a tenth within the week, a fifth within the year,
//   the rest none), one request at a time over a keep-alive connection; target p50 < 50 ms at 10,000 hosts.
// * The forecast job's cost: a fleet with 7 days of hourly history per resource series (raw rows, as the
//   collector leaves them before the rollup, so every read is the slowest kind), one whole pass in slices
//   timed in this process; its CPU projected to 10,000 hosts every FORECAST_INTERVAL_MS.
//
// Sizing: BENCH_FORECAST_HOSTS (10,000), BENCH_FORECAST_JOB_HOSTS (500), BENCH_FORECAST_REQUESTS (50),
// BENCH_MAX_SECONDS (180 per engine).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FORECAST_WINDOWS_SEC } from '../src/shared/api/forecasts'
import { forecastSlice } from '../src/server/history/forecaster'
import { RawSampleWriter } from '../src/server/history/raw-samples'
import { FORECAST_INTERVAL_MS } from '../src/server/jobs/forecast-job'
import type { ForecastRow, ResourceSeries } from '../src/server/store/forecasts'
import { FORECAST_TYPES } from '../src/server/store/forecasts'
import { Store } from '../src/server/store/store'
import { removeDir } from '../test/support/built-server'
import { onFleetServer } from './fleet-server'
import { startBenchCluster } from './postgres'
import { populate } from './status'
import { Deadline, envInt, fixed, int, mulberry32, parsed, percentile, printRows, timedGet, verdict, type Benchmark } from './support'

const TARGET_P50_MS = 50
const WARMUP_REQUESTS = 5
const DATABASE_FILE = 'overseer.sqlite'
const HOUR = 3600
const DAY = 86_400
const FLEET = 10_000

export const forecastsBenchmark: Benchmark = {
  name: 'forecasts',
  description: 'reports/forecasts/list at fleet size (SQLite, PostgreSQL) and the forecast job CPU per pass',
  run: runForecastsBenchmark
}

async function runForecastsBenchmark(): Promise<void> {
  const hosts = envInt('BENCH_FORECAST_HOSTS', FLEET)
  const verdicts: string[] = []
  verdicts.push(...(await measureList('SQLite', hosts)))
  const cluster = startBenchCluster()
  try {
    verdicts.push(...(await measureList('PostgreSQL', hosts, cluster.createDatabase())))
  } finally {
    cluster.stop()
  }
  measureJob(envInt('BENCH_FORECAST_JOB_HOSTS', 500))
  for (const line of verdicts) console.log(line)
}

/** Every series of the store, in id order. */
function allSeries(store: Store): ResourceSeries[] {
  const all: ResourceSeries[] = []
  for (let batch = store.forecasts.seriesAfter(0, 5000); batch.length > 0; batch = store.forecasts.seriesAfter(batch.at(-1)!.id, 5000)) {
    all.push(...batch)
  }
  return all
}

/** A stored forecast for every series: a tenth full within the week, a fifth within the year, the rest none. */
function storeForecasts(location: string): number {
  const store = new Store(location)
  const random = mulberry32(0x30)
  const now = Math.floor(Date.now() / 1000)
  try {
    const rows: ForecastRow[] = allSeries(store).map((s) => {
      const draw = random()
      const fullAt = draw < 0.1 ? now + Math.floor(random() * 7 * DAY) : draw < 0.3 ? now + Math.floor(random() * 365 * DAY) : null
      return {
        statistic_id: s.id,
        host_id: s.host_id,
        service_id: s.service_id,
        resource: FORECAST_TYPES.get(s.type)!,
        percent: 50,
        slope: fullAt === null ? 0 : 1,
        confidence: fullAt === null ? 0.2 : 0.9,
        window_sec: FORECAST_WINDOWS_SEC[1],
        full_at: fullAt,
        computed_at: now
      }
    })
    for (let i = 0; i < rows.length; i += 5000) store.forecasts.save(rows.slice(i, i + 5000))
    if (store.sql.engine === 'postgres') store.sql.execute('VACUUM ANALYZE forecast')
    return rows.length
  } finally {
    store.close()
  }
}

async function measureList(engine: string, hosts: number, database?: string): Promise<string[]> {
  const deadline = new Deadline(envInt('BENCH_MAX_SECONDS', 180))
  const requests = envInt('BENCH_FORECAST_REQUESTS', 50)
  const fleet = { hosts, deadline, database, prefix: 'overseer-bench-forecasts-', prepare: storeForecasts }
  return onFleetServer(fleet, async ({ prepared: forecasts, target, keepAlive }) => {
    console.log(
      `\n  reports/forecasts/list on ${engine}: ${int(hosts)} hosts, ${int(forecasts)} stored forecasts; ` +
        `${WARMUP_REQUESTS} warm-up then ${requests} requests per case, keep-alive`
    )
    const cases = [
      { label: 'dashboard: full within 7 days, first 10', path: '/api/2/reports/forecasts/list?within=168&results=10' },
      { label: 'full within a year, first 1,000', path: '/api/2/reports/forecasts/list?within=8760&results=1000' }
    ]
    const rows: [string, string][] = []
    const verdicts: string[] = []
    for (const c of cases) {
      const ask = async () => {
        deadline.check(`asking for the forecast list on ${engine}`)
        const sample = await timedGet(target, c.path, keepAlive)
        if (sample.status !== 200 || !(parsed(sample) as { records?: unknown[] } | undefined)?.records) {
          throw new Error(`forecast list answered ${sample.status} ${sample.error ?? sample.body.slice(0, 200)}`)
        }
        return sample.ms
      }
      for (let i = 0; i < WARMUP_REQUESTS; i++) await ask()
      const latencies: number[] = []
      for (let i = 0; i < requests; i++) latencies.push(await ask())
      latencies.sort((a, b) => a - b)
      const p50 = percentile(latencies, 50)
      rows.push([c.label, `p50 ${fixed(p50, 1)} ms, p90 ${fixed(percentile(latencies, 90), 1)} ms, max ${fixed(latencies.at(-1)!, 1)} ms`])
      verdicts.push(
        verdict(
          `forecast list (${c.label}, ${engine}) p50 < ${TARGET_P50_MS} ms (${int(hosts)} hosts)`,
          p50 < TARGET_P50_MS,
          `p50 ${fixed(p50, 1)} ms`
        )
      )
    }
    printRows(rows, '    ')
    return verdicts
  })
}

/** One whole pass of the job over `hosts` hosts with 7 days of hourly history per resource series, on SQLite. */
function measureJob(hosts: number): void {
  const deadline = new Deadline(envInt('BENCH_MAX_SECONDS', 180))
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-forecast-job-'))
  try {
    populate(dataDir, hosts, deadline)
    const store = new Store(join(dataDir, DATABASE_FILE))
    try {
      const now = Math.floor(Date.now() / 1000)
      const series = allSeries(store)
      const byHost = new Map<number, ResourceSeries[]>()
      for (const s of series) {
        const ofHost = byHost.get(s.host_id)
        if (ofHost) ofHost.push(s)
        else byHost.set(s.host_id, [s])
      }
      const writer = new RawSampleWriter()
      const random = mulberry32(0x31)
      let rawRows = 0
      store.transaction(() => {
        for (const [hostId, ofHost] of byHost) {
          const perHour = ofHost.map(() => random() * 0.5)
          for (let time = now - 7 * DAY; time <= now; time += HOUR) {
            writer.reset()
            ofHost.forEach((s, i) => writer.add(s.id, Number((30 + perHour[i] * ((time - now + 7 * DAY) / HOUR) + random()).toFixed(1))))
            store.history.raw.append(hostId, time, writer.finish()!)
            rawRows++
          }
        }
      })
      const cpu = process.cpuUsage()
      const started = performance.now()
      let slices = 0
      for (let afterId = 0, done = false; !done; slices++) {
        deadline.check('running the forecast pass')
        ;({ lastId: afterId, done } = forecastSlice(store, now, afterId))
      }
      const wallMs = performance.now() - started
      const used = process.cpuUsage(cpu)
      const cpuMs = (used.user + used.system) / 1000
      const stored = Number(store.sql.rows<{ n: number }>('SELECT count(*) AS n FROM forecast')[0].n)
      const shareAtFleet = ((cpuMs / hosts) * FLEET) / FORECAST_INTERVAL_MS
      console.log(
        `\n  forecast job, one pass on SQLite: ${int(hosts)} hosts, ${int(series.length)} resource series, ${int(rawRows)} raw rows of history`
      )
      printRows(
        [
          [
            'pass',
            `${fixed(wallMs / 1000, 2)} s wall, ${fixed(cpuMs / 1000, 2)} CPU-s in ${slices} slices, ${int(stored)} forecasts stored`
          ],
          ['per host', `${fixed(cpuMs / hosts, 2)} CPU-ms`],
          [`${int(FLEET)} hosts every ${FORECAST_INTERVAL_MS / 60_000} min`, `${fixed(shareAtFleet * 100, 1)} % of one core (projected)`]
        ],
        '    '
      )
    } finally {
      store.close()
    }
  } finally {
    removeDir(dataDir)
  }
}
