// reports/uptime/list at fleet size (issue 28), on SQLite and on PostgreSQL: every host's agent reporting,
// services up and event count over the last 24 hours and the last week, for a fleet with a week of down
// history (silences and service failures, some still open), one request at a time over a keep-alive
// connection. Part of `npm run bench -- console`: the uptime screen waits for this answer. The first
// answer measures every host; the next ones are the kept measurements plus the event counts
// (api/reports-uptime.ts), while nothing changes and then while a changing fleet (CHANGED_HOSTS hosts'
// intervals written through another connection before each request, as the collector would) makes some
// hosts be measured again: all three are shown, the verdict on the changing fleet.
//
// Sizing: the console's host count; BENCH_UPTIME_REQUESTS (25 per range and case), BENCH_MAX_SECONDS (180 per engine).
import { Range } from '../src/shared/ranges'
import { Store } from '../src/server/store/store'
import { onFleetServer } from './fleet-server'
import { startBenchCluster } from './postgres'
import { Deadline, envInt, fixed, int, mulberry32, parsed, percentile, printRows, timedGet, verdict } from './support'

const TARGET_P50_MS = 100
const WARMUP_REQUESTS = 5
const HOUR = 3600
const WEEK = 7 * 24 * HOUR
/** Down intervals written per host over the last week: its silences and the failures of some of its services. */
const SILENCES_PER_HOST = 2
const FAILING_SERVICES = 3
const FAILURES_PER_SERVICE = 2
/** Hosts whose intervals change between two requests of the changing fleet: a state change every 100 ms for a list reopened every 5 s. */
const CHANGED_HOSTS = 50

const RANGES = [
  { range: Range.Last24Hours, label: 'last 24 hours' },
  { range: Range.Week, label: 'last week' }
] as const

/** Measures the list on both engines and returns the verdict lines. */
export async function measureUptimeList(hosts: number): Promise<string[]> {
  const verdicts: string[] = []
  verdicts.push(...(await measureOn('SQLite', hosts)))
  const cluster = startBenchCluster()
  try {
    verdicts.push(...(await measureOn('PostgreSQL', hosts, cluster.createDatabase())))
  } finally {
    cluster.stop()
  }
  return verdicts
}

async function measureOn(engine: string, hosts: number, database?: string): Promise<string[]> {
  const deadline = new Deadline(envInt('BENCH_MAX_SECONDS', 180))
  const requests = envInt('BENCH_UPTIME_REQUESTS', 25)
  const fleet = { hosts, deadline, database, prefix: 'overseer-bench-uptime-', prepare: writeDownHistory }
  return onFleetServer(fleet, async ({ prepared: intervals, target, keepAlive, location }) => {
    console.log(
      `\n  reports/uptime/list on ${engine}: ${int(hosts)} hosts, ${int(intervals)} down intervals over the last week; ` +
        `${WARMUP_REQUESTS} warm-up then ${requests} requests per range, keep-alive`
    )
    const rows: [string, string][] = []
    const verdicts: string[] = []
    const writer = new Store(location)
    const changeSomeHosts = hostChanger(writer)
    try {
      for (const { range, label } of RANGES) {
        const ask = async () => {
          deadline.check(`asking for the uptime list on ${engine}`)
          const sample = await timedGet(target, `/api/2/reports/uptime/list?range=${range}`, keepAlive)
          const items = (parsed(sample) as { items?: unknown[] } | undefined)?.items
          if (sample.status !== 200 || items?.length !== hosts) {
            throw new Error(`uptime list (${label}) answered ${sample.status} ${sample.error ?? sample.body.slice(0, 200)}`)
          }
          return sample.ms
        }
        const first = await ask()
        for (let i = 1; i < WARMUP_REQUESTS; i++) await ask()
        const quiet: number[] = []
        for (let i = 0; i < requests; i++) quiet.push(await ask())
        const changing: number[] = []
        for (let i = 0; i < requests; i++) {
          changeSomeHosts()
          changing.push(await ask())
        }
        rows.push([label, `first ${fixed(first, 1)} ms (measures every host)`])
        rows.push(['', `nothing changed: ${summary(quiet)}`])
        rows.push(['', `${CHANGED_HOSTS} hosts changed before each: ${summary(changing)}`])
        const p50 = percentile(
          [...changing].sort((a, b) => a - b),
          50
        )
        verdicts.push(
          verdict(
            `uptime list (${label}, ${engine}, ${CHANGED_HOSTS} hosts changing) p50 < ${TARGET_P50_MS} ms (${int(hosts)} hosts)`,
            p50 < TARGET_P50_MS,
            `p50 ${fixed(p50, 1)} ms`
          )
        )
      }
    } finally {
      writer.close()
    }
    printRows(rows, '    ')
    return verdicts
  })
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b)
  return `p50 ${fixed(percentile(sorted, 50), 1)} ms, p90 ${fixed(percentile(sorted, 90), 1)} ms, max ${fixed(percentile(sorted, 100), 1)} ms`
}

/** Writes, with each call, a minute's silence in the last hour for CHANGED_HOSTS random hosts, as reports from a changing fleet would. */
function hostChanger(store: Store): () => void {
  const { db, sql } = store
  const hostIds = sql.all(db.selectFrom('host').select('id')).map((h) => h.id)
  const random = mulberry32(0x2850)
  return () => {
    const now = Math.floor(Date.now() / 1000)
    const rows = Array.from({ length: CHANGED_HOSTS }, () => {
      const start = now - HOUR + Math.floor(random() * (HOUR - 120))
      return { host_id: hostIds[Math.floor(random() * hostIds.length)], service_name_id: null, start, end: start + 60 }
    })
    sql.transaction(() => sql.run(db.insertInto('state_interval').values(rows)))
  }
}

/**
 * A week of downtime for every host, as the collector would have left it: silences and failures of its
 * services, a tenth of them still open, in time order and never overlapping per host and service.
 * Returns how many intervals were written.
 */
export function writeDownHistory(location: string): number {
  const store = new Store(location)
  const random = mulberry32(0x28)
  const now = Math.floor(Date.now() / 1000)
  let written = 0
  try {
    const { db, sql } = store
    const services = new Map<number, number[]>()
    for (const s of sql.all(db.selectFrom('service').select(['host_id', 'name_id']))) {
      services.set(s.host_id, [...(services.get(s.host_id) ?? []), s.name_id])
    }
    const spread = (count: number) => {
      // `count` intervals in turn over the week, each within its own slice of it.
      const slice = Math.floor(WEEK / count)
      return Array.from({ length: count }, (_, i) => {
        const start = now - WEEK + i * slice + Math.floor(random() * slice * 0.5)
        const open = i === count - 1 && random() < 0.1
        return { start, end: open ? null : start + 60 + Math.floor(random() * slice * 0.4) }
      })
    }
    sql.transaction(() => {
      for (const [hostId, nameIds] of services) {
        const rows = [
          ...spread(SILENCES_PER_HOST).map((i) => ({ host_id: hostId, service_name_id: null, ...i })),
          ...nameIds
            .slice(0, FAILING_SERVICES)
            .flatMap((nameId) => spread(FAILURES_PER_SERVICE).map((i) => ({ host_id: hostId, service_name_id: nameId, ...i })))
        ]
        sql.run(db.insertInto('state_interval').values(rows))
        written += rows.length
      }
    })
    if (sql.engine === 'postgres') sql.execute('VACUUM ANALYZE state_interval')
  } finally {
    store.close()
  }
  return written
}
