// SQLite and PostgreSQL side by side, on the same machine under the same load: the collector's rate over
// HTTP (collector.ts's measureHttp), the status list's p50 at fleet size (status.ts), and the rate of two
// servers sharing one PostgreSQL database, the load split between them. PostgreSQL is a throwaway
// cluster (postgres.ts) with a fresh database per run. Sizing: as the collector and status benchmarks.
import { buildTraffic } from './collector-payloads'
import { measureHttp, printHttp, rate, settings as collectorSettings, type Engine } from './collector'
import { startBenchCluster } from './postgres'
import { measureStatus } from './status'
import { fixed, int, verdict, type Benchmark } from './support'

const PG_COLLECTOR_TARGET = 1000
const PG_LIST_TARGET_MS = 20

export const enginesBenchmark: Benchmark = {
  name: 'engines',
  description: 'SQLite vs. PostgreSQL: collector msg/s over HTTP, status list p50, two instances on one database',
  run: runEnginesBenchmark
}

interface Row {
  engine: string
  collector: number
  listP50?: number
}

async function runEnginesBenchmark(): Promise<void> {
  const s = collectorSettings()
  const traffic = buildTraffic(s.agents, s.messages)
  const cluster = startBenchCluster()
  const rows: Row[] = []
  try {
    const collector = async (engine: Engine) => {
      const http = await measureHttp(traffic.warmup, traffic.messages, s, engine)
      printHttp(http, s)
      return rate(http)
    }
    rows.push({ engine: 'SQLite', collector: await collector({}), listP50: await measureStatus() })
    rows.push({
      engine: 'PostgreSQL',
      collector: await collector({ database: cluster.createDatabase() }),
      listP50: await measureStatus(cluster.createDatabase())
    })
    rows.push({ engine: 'PostgreSQL, 2 servers', collector: await collector({ database: cluster.createDatabase(), instances: 2 }) })
  } finally {
    cluster.stop()
  }
  printTable(rows, s.messages)
}

function printTable(rows: readonly Row[], messages: number): void {
  const width = Math.max(...rows.map((r) => r.engine.length))
  console.log(`\nengines (${int(messages)} collector messages over HTTP, status list: page of 1000 over all pages, keep-alive):`)
  console.log(`  ${'engine'.padEnd(width)} | ${'collector msg/s'.padStart(15)} | ${'status list p50'.padStart(15)}`)
  for (const r of rows) {
    const list = r.listP50 === undefined ? '-' : `${fixed(r.listP50, 2)} ms`
    console.log(`  ${r.engine.padEnd(width)} | ${int(r.collector).padStart(15)} | ${list.padStart(15)}`)
  }
  const pg = rows.find((r) => r.engine === 'PostgreSQL')!
  console.log(
    verdict(`PostgreSQL collector ≥${int(PG_COLLECTOR_TARGET)} msg/s`, pg.collector >= PG_COLLECTOR_TARGET, `${int(pg.collector)} msg/s`)
  )
  console.log(
    verdict(`PostgreSQL status list p50 < ${PG_LIST_TARGET_MS} ms`, pg.listP50! < PG_LIST_TARGET_MS, `${fixed(pg.listP50!, 2)} ms`)
  )
}
