// Small helpers shared by the benchmarks: the module shape the runner expects, settings from the
// environment, percentiles and number formatting, the built server and what its process uses.
import { readFileSync } from 'node:fs'
import { startBuiltServer, type BuiltServer } from '../test/support/built-server'

/** One benchmark: `bench/run.ts` calls `run()`, which prints its own figures. */
export interface Benchmark {
  name: string
  description: string
  run(): Promise<void>
}

/** A positive integer from the environment, so runs can be sized without editing code. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`)
  return value
}

/** Nearest-rank percentile (p in 0..100) of values sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** Seconds elapsed since `start`, a `process.hrtime.bigint()` reading. */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

export const int = (n: number): string => Math.round(n).toLocaleString('en-US')
export const fixed = (n: number, digits: number): string => n.toFixed(digits)

/** A line that makes a missed target impossible to overlook. */
export function verdict(target: string, pass: boolean, detail: string): string {
  return `${target}: ${pass ? 'PASS' : 'FAIL  <<<<<<'} (${detail})`
}

/** `label ........ value` rows with aligned values. */
export function printRows(rows: readonly (readonly [string, string])[], indent = '  '): void {
  const width = Math.max(...rows.map(([label]) => label.length))
  for (const [label, value] of rows) console.log(`${indent}${label.padEnd(width)}  ${value}`)
}

/**
 * The built server as users run it: `node out/main/server.js`. fork() hands the child this process's
 * execArgv (`--import tsx`, profiler flags) unless told otherwise, and startBuiltServer does not say,
 * so swap in the server's own flags for the duration of the fork.
 */
export async function startPlainServer(dataDir: string, args: string[], profileDir?: string): Promise<BuiltServer> {
  const inherited = process.execArgv
  process.execArgv = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
  try {
    return await startBuiltServer({ args, dataDir })
  } finally {
    process.execArgv = inherited
  }
}

/** Resident memory of a process now (VmRSS) and at its peak (VmHWM), in bytes, from /proc; undefined where there is none. */
export function processMemory(pid: number): { rss: number; peakRss: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
    return { rss: kib('VmRSS'), peakRss: kib('VmHWM') }
  } catch {
    return undefined
  }
}

export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`
