// SQLite and PostgreSQL side by side, on the same machine under the same load: the collector's rate over
// HTTP (collector.ts's measureHttp), the status and events API's p50s at fleet size (status.ts), and the rate of two
// servers sharing one PostgreSQL database, the load split between them. PostgreSQL is a throwaway
// cluster (postgres.ts) with a fresh database per run. Sizing: as the collector and status benchmarks.
import { buildTraffic } from './collector-payloads'
import { measureHttp, printHttp, rate, settings as collectorSettings, type Engine } from './collector'
import { startBenchCluster } from './postgres'
import { measureStatus, type StatusP50s } from './status'
import { fixed, int, verdict, type Benchmark } from './support'

const PG_COLLECTOR_TARGET = 1000
const PG_LIST_TARGET_MS = 20

export const enginesBenchmark: Benchmark = {
  name: 'engines',
  description: 'SQLite vs. PostgreSQL: collector msg/s over HTTP, status and events API p50s, two instances on one database',
  run: runEnginesBenchmark
}

interface Row {
  engine: string
  collector: number
  api?: StatusP50s
}

async function runEnginesBenchmark(): Promise<void> {
  const s = collectorSettings()
  const traffic = buildTraffic(s.agents, s.messages)
  const cluster = startBenchCluster()
  const rows: Row[] = []
  try {
    // The collector's PostgreSQL rate is bound by round trips (docs/performance.md): this machine's own
    // figure today, beside which the rates below are read (2026-11-24: about 170 µs).
    console.log(`  PostgreSQL round trip (SELECT 1, the server's synchronous connection): ${fixed(cluster.roundTripMicros(), 0)} µs`)
    const collector = async (engine: Engine) => {
      const http = await measureHttp(traffic.warmup, traffic.messages, s, engine)
      printHttp(http, s)
      return rate(http)
    }
    rows.push({ engine: 'SQLite', collector: await collector({}), api: await measureStatus() })
    rows.push({
      engine: 'PostgreSQL',
      collector: await collector({ database: cluster.createDatabase() }),
      api: await measureStatus(cluster.createDatabase())
    })
    rows.push({ engine: 'PostgreSQL, 2 servers', collector: await collector({ database: cluster.createDatabase(), instances: 2 }) })
  } finally {
    cluster.stop()
  }
  printTable(rows, s.messages)
}

function printTable(rows: readonly Row[], messages: number): void {
  const width = Math.max(...rows.map((r) => r.engine.length))
  const ms = (v: number | undefined) => (v === undefined ? '-' : `${fixed(v, 2)} ms`)
  const columns = ['collector msg/s', 'status list p50', 'status get p50', 'events list p50']
  console.log(
    `\nengines (${int(messages)} collector messages over HTTP; status list: page of 1000 over all pages; events: page of 100; keep-alive):`
  )
  console.log(`  ${'engine'.padEnd(width)} | ${columns.map((c) => c.padStart(15)).join(' | ')}`)
  for (const r of rows) {
    const cells = [int(r.collector), ms(r.api?.list), ms(r.api?.get), ms(r.api?.events)]
    console.log(`  ${r.engine.padEnd(width)} | ${cells.map((c) => c.padStart(15)).join(' | ')}`)
  }
  const pg = rows.find((r) => r.engine === 'PostgreSQL')!
  console.log(
    verdict(`PostgreSQL collector ≥${int(PG_COLLECTOR_TARGET)} msg/s`, pg.collector >= PG_COLLECTOR_TARGET, `${int(pg.collector)} msg/s`)
  )
  console.log(verdict(`PostgreSQL status list p50 < ${PG_LIST_TARGET_MS} ms`, pg.api!.list < PG_LIST_TARGET_MS, ms(pg.api!.list)))
}
