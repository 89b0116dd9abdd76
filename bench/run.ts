// Runs the benchmarks: `npm run bench` runs all of them, `npm run bench -- collector` only the named.
// Each benchmark is one module that prints its own figures; add new ones to BENCHMARKS.
import { cpus, loadavg, release, totalmem } from 'node:os'
import { alertingBenchmark } from './alerting'
import { burstsBenchmark } from './bursts'
import { collectorBenchmark } from './collector'
import { consoleBenchmark } from './console'
import { enginesBenchmark } from './engines'
import { eventsBenchmark } from './events'
import { footprintBenchmark } from './footprint'
import { forecastsBenchmark } from './forecasts'
import { historyBenchmark } from './history'
import { importMMonitBenchmark } from './import-mmonit'
import { parserBenchmark } from './parser'
import { pullBenchmark } from './pull'
import { slowClientsBenchmark } from './slow-clients'
import { statusBenchmark } from './status'
import type { Benchmark } from './support'

const BENCHMARKS: readonly Benchmark[] = [
  collectorBenchmark,
  statusBenchmark,
  eventsBenchmark,
  consoleBenchmark,
  historyBenchmark,
  burstsBenchmark,
  parserBenchmark,
  alertingBenchmark,
  enginesBenchmark,
  forecastsBenchmark,
  pullBenchmark,
  footprintBenchmark,
  slowClientsBenchmark,
  importMMonitBenchmark
]

function selected(names: readonly string[]): Benchmark[] {
  if (names.length === 0) return [...BENCHMARKS]
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n))
  if (unknown.length > 0) {
    const known = BENCHMARKS.map((b) => `  ${b.name.padEnd(12)} ${b.description}`).join('\n')
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known:\n${known}`)
  }
  return BENCHMARKS.filter((b) => names.includes(b.name))
}

/** Figures mean little without the machine they came from, and how busy it already was. */
function printMachine(): void {
  const cores = cpus()
  const load = loadavg()[0]
  console.log(
    `machine: node ${process.version}, ${process.platform} ${release()}, ` +
      `${cores.length} CPU(s) ${cores[0]?.model.trim() ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM`
  )
  console.log(
    `load average (1 min) at start: ${load.toFixed(2)}` +
      (load > cores.length / 2 ? '  -- other work is running: figures will be low and noisy' : '')
  )
}

async function main(): Promise<void> {
  const benchmarks = selected(process.argv.slice(2))
  printMachine()
  for (const b of benchmarks) {
    console.log(`\n== ${b.name}: ${b.description}`)
    await b.run()
  }
}

// A missed target still exits 0 (this measures, it does not test); only a broken run exits non-zero.
main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
})
