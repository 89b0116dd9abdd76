// A throwaway PostgreSQL cluster for the benchmarks that compare engines: scripts/postgres.sh starts it
// in a fresh folder (loopback only) and stops it; every measured run gets a database of its own.
// BENCH_POSTGRES_PORT (54450) is the cluster's port.
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SyncConnection } from '../src/server/store/postgres/sync-connection'
import { removeDir } from '../test/support/built-server'
import { withDatabase } from '../test/support/test-database'
import { envInt } from './support'

const SCRIPT = resolve(__dirname, '../scripts/postgres.sh')
const ROUND_TRIP_WARMUP = 500
const ROUND_TRIPS = 5000

export interface BenchCluster {
  /** A new, empty database on the cluster: its URL. */
  createDatabase(): string
  /** The mean time of `SELECT 1` answered on the server's synchronous connection (its thread and pg), in µs. */
  roundTripMicros(): number
  stop(): void
}

export function startBenchCluster(): BenchCluster {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-bench-pg-'))
  const url = execFileSync(SCRIPT, ['start', dir, String(envInt('BENCH_POSTGRES_PORT', 54450))], { encoding: 'utf8' }).trim()
  const admin = new SyncConnection(withDatabase(url, 'postgres'))
  let created = 0
  return {
    createDatabase() {
      const name = `bench_${++created}`
      admin.query(`CREATE DATABASE ${name}`)
      return withDatabase(url, name)
    },
    roundTripMicros() {
      for (let i = 0; i < ROUND_TRIP_WARMUP; i++) admin.query('SELECT 1')
      const started = performance.now()
      for (let i = 0; i < ROUND_TRIPS; i++) admin.query('SELECT 1')
      return ((performance.now() - started) * 1000) / ROUND_TRIPS
    },
    stop() {
      admin.close()
      execFileSync(SCRIPT, ['stop', dir])
      removeDir(dir)
    }
  }
}
