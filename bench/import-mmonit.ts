// `overseer import-mmonit` on a generated M/Monit SQLite database (test/support/mmonit-database.ts),
// into SQLite and into PostgreSQL: rows per second of each step, and the issue's size (1,000 hosts,
// 20,000 services, 10 M events, a year of statistics) extrapolated from them. The import runs in this
// process, as the command runs it (batches of DEFAULT_BATCH_ROWS, one transaction each).
//
// Sizing: BENCH_IMPORT_HOSTS (100), BENCH_IMPORT_SERVICES (20 per host), BENCH_IMPORT_EVENTS (250 per
// service), BENCH_IMPORT_SAMPLES (240 raw samples per series; every roll-up level adds 863 averages a
// series: a year of daily ones). BENCH_IMPORT_POSTGRES=0 leaves PostgreSQL out.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CopyProgress } from '../src/server/tools/migrate-database'
import { importMMonit } from '../src/server/tools/import-mmonit/import-database'
import { removeDir } from '../test/support/built-server'
import { AGGREGATE_SPANS, createMMonitSqlite, type MMonitShape } from '../test/support/mmonit-database'
import { startBenchCluster } from './postgres'
import { envInt, fixed, int, printRows, secondsSince, type Benchmark } from './support'

export const importMMonitBenchmark: Benchmark = {
  name: 'import-mmonit',
  description: 'rows/s per step from a generated M/Monit database, into SQLite and PostgreSQL, and the issue size extrapolated',
  run: runImportBenchmark
}

/** The issue's installation: 1,000 hosts, 20,000 services, 10 M events, a year of statistics. */
const ISSUE = { hosts: 1000, services: 20_000, events: 10_000_000 }
/** Series per service in a real M/Monit (CPU, memory, …) where the generator makes one. */
const SERIES_PER_SERVICE = 5

interface StepTiming {
  name: string
  rows: number
  seconds: number
}

async function runImportBenchmark(): Promise<void> {
  const shape: MMonitShape = {
    version: 15,
    hosts: envInt('BENCH_IMPORT_HOSTS', 100),
    servicesPerHost: envInt('BENCH_IMPORT_SERVICES', 20),
    eventsPerService: envInt('BENCH_IMPORT_EVENTS', 250),
    samplesPerSeries: envInt('BENCH_IMPORT_SAMPLES', 240),
    now: 1_767_225_600
  }
  const dir = mkdtempSync(join(tmpdir(), 'overseer-bench-import-'))
  try {
    const source = join(dir, 'mmonit.db')
    const generating = process.hrtime.bigint()
    createMMonitSqlite(source, shape)
    console.log(
      `source: ${int(shape.hosts)} hosts, ${int(shape.hosts * shape.servicesPerHost)} services, ` +
        `${int(shape.hosts * shape.servicesPerHost * shape.eventsPerService)} events, ${int(samplesPerSeries(shape) * shape.hosts * shape.servicesPerHost)} samples ` +
        `(generated in ${fixed(secondsSince(generating), 1)} s)`
    )
    const runs: [string, () => string][] = [['SQLite', () => join(dir, 'overseer.sqlite')]]
    const cluster = process.env.BENCH_IMPORT_POSTGRES === '0' ? undefined : startBenchCluster()
    if (cluster) runs.push(['PostgreSQL', () => cluster.createDatabase()])
    try {
      for (const [engine, target] of runs) await measure(engine, shape, source, target(), join(dir, `${engine}.key`))
    } finally {
      cluster?.stop()
    }
  } finally {
    removeDir(dir)
  }
}

async function measure(engine: string, shape: MMonitShape, source: string, to: string, keyFile: string): Promise<void> {
  const timings: StepTiming[] = []
  let current: StepTiming | undefined
  let started = process.hrtime.bigint()
  const progress: CopyProgress = {
    table(name) {
      current = { name, rows: 0, seconds: 0 }
      started = process.hrtime.bigint()
    },
    rows(n) {
      if (current) current.rows = n
    },
    tableDone() {
      if (!current) return
      current.seconds = secondsSince(started)
      timings.push(current)
    }
  }
  const all = process.hrtime.bigint()
  await importMMonit({ from: `sqlite:${source}`, to, keyFile, history: true, dryRun: false, merge: false, progress })
  const total = secondsSince(all)
  console.log(`\n${engine}: imported in ${fixed(total, 1)} s`)
  printRows(
    timings.map((t) => [t.name, `${int(t.rows)} rows in ${fixed(t.seconds, 1)} s = ${int(t.rows / Math.max(t.seconds, 0.001))} rows/s`])
  )
  console.log(`  the issue's size at these rates: ${extrapolate(shape, timings)}`)
}

function samplesPerSeries(shape: MMonitShape): number {
  return shape.samplesPerSeries + Object.values(AGGREGATE_SPANS).reduce((sum, span) => sum + span.count, 0)
}

/**
 * Each step's rate times the issue's rows of that kind: hosts and users scale with hosts, services,
 * groups and series with services (5 series each), events with events, samples with series (the same
 * year of roll-ups and raw samples a series).
 */
function extrapolate(shape: MMonitShape, timings: readonly StepTiming[]): string {
  const services = shape.hosts * shape.servicesPerHost
  const scale: Record<string, number> = {
    names: ISSUE.services / services,
    users: 1,
    hosts: ISSUE.hosts / shape.hosts,
    'host groups': ISSUE.hosts / shape.hosts,
    services: ISSUE.services / services,
    'service groups': ISSUE.services / services,
    events: ISSUE.events / (services * shape.eventsPerService),
    statistics: (ISSUE.services * SERIES_PER_SERVICE) / services,
    history: (ISSUE.services * SERIES_PER_SERVICE) / services
  }
  const seconds = timings.reduce((sum, t) => sum + t.seconds * (scale[t.name] ?? 1), 0)
  const events = timings.find((t) => t.name === 'events')
  const history = timings.find((t) => t.name === 'history')
  const part = (t: StepTiming | undefined) => (t ? `${fixed((t.seconds * scale[t.name]) / 60, 0)} min` : 'n/a')
  return `${fixed(seconds / 60, 0)} min (events ${part(events)}, history of ${int(ISSUE.services * SERIES_PER_SERVICE)} series ${part(history)})`
}
