// Small helpers shared by the benchmarks: the module shape the runner expects, settings from the
// environment, percentiles and number formatting, the built server and what its process uses.
import { readFileSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { Agent as HttpAgent, request, type Agent } from 'node:http'
import { join } from 'node:path'
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
 * The built server as users run it: `node out/main/server.js` with plain node flags (not this
 * process's `--import tsx`), plus a CPU profile when asked.
 */
export async function startPlainServer(dataDir: string, args: string[], profileDir?: string): Promise<BuiltServer> {
  return startBuiltServer({ args, dataDir, execArgv: profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] })
}

/**
 * Starts the built server on a populated data directory, measures over one keep-alive connection,
 * prints the results, the server's footprint and the verdicts, and stops the server whatever happens.
 * Returns the results, for the engines' comparison.
 */
export async function measureOnServer<R>(
  server: { dataDir: string; databaseFile: string; args: string[]; profileDir?: string },
  measure: (running: BuiltServer, keepAlive: Agent) => Promise<R>,
  report: { results(r: R): void; verdicts(r: R): void }
): Promise<R> {
  const started = process.hrtime.bigint()
  const running = await startPlainServer(server.dataDir, server.args, server.profileDir)
  const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 1 })
  try {
    console.log(`server: ready in ${fixed(Number(process.hrtime.bigint() - started) / 1e9, 2)} s`)
    const results = await measure(running, keepAlive)
    report.results(results)
    printFootprint(running.child.pid, server.dataDir, server.databaseFile)
    report.verdicts(results)
    return results
  } finally {
    keepAlive.destroy()
    const code = await running.stop()
    if (code !== 0) console.log(`server exited with code ${code}:\n${running.output()}`)
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

// ---------------------------------------------------------------------------------------------
// Shared by the HTTP latency benchmarks (status, events)

const REQUEST_TIMEOUT_MS = 10_000

/** The bound on a whole benchmark: every loop checks it, and no request may outlive it. */
export class Deadline {
  private readonly at: number
  constructor(private readonly seconds: number) {
    this.at = Date.now() + seconds * 1000
  }

  check(doing: string): void {
    if (Date.now() >= this.at) throw new Error(`BENCH_MAX_SECONDS (${this.seconds} s) reached while ${doing}`)
  }

  requestTimeoutMs(): number {
    return Math.max(1, Math.min(REQUEST_TIMEOUT_MS, this.at - Date.now()))
  }
}

/** The database file and its write-ahead log, as the server leaves them. */
export function databaseSize(dataDir: string, databaseFile = 'overseer.sqlite'): string {
  const size = (file: string) => {
    try {
      return statSync(join(dataDir, file)).size
    } catch {
      return 0
    }
  }
  return `${databaseFile} ${mib(size(databaseFile))} + WAL ${mib(size(`${databaseFile}-wal`))}`
}

export interface Sample {
  /** HTTP status, or 0 when the request failed */
  status: number
  /** From sending the request to the response's last byte: parsing the JSON here is not counted. */
  ms: number
  body: string
  error?: string
}

export interface Target {
  port: number
  cookie: string
  deadline: Deadline
}

/** One GET with the session cookie; `agent` false opens a new connection for it, like the test client. */
export function timedGet(target: Target, path: string, agent: Agent | false): Promise<Sample> {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint()
    const elapsed = () => Number(process.hrtime.bigint() - start) / 1e6
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path,
        method: 'GET',
        agent,
        headers: { Cookie: target.cookie },
        timeout: target.deadline.requestTimeoutMs()
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const ms = elapsed()
          resolve({ status: res.statusCode ?? 0, ms, body: Buffer.concat(chunks).toString() })
        })
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, ms: elapsed(), body: '', error: err.code ?? err.message }))
      }
    )
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, ms: elapsed(), body: '', error: err.code ?? err.message }))
    req.end()
  })
}

/** The sample's body as JSON, or undefined when it is not JSON. */
export function parsed(sample: Sample): unknown {
  try {
    return JSON.parse(sample.body)
  } catch {
    return undefined
  }
}

/** A small seeded PRNG (mulberry32): numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/** What a benchmarked server left behind: its memory, the database size, the machine's load. */
export function printFootprint(pid: number | undefined, dataDir: string, databaseFile: string): void {
  const memory = pid === undefined ? undefined : processMemory(pid)
  printRows([
    ['server memory', memory ? `RSS ${mib(memory.rss)} after the run (peak ${mib(memory.peakRss)})` : 'n/a'],
    ['database', databaseSize(dataDir, databaseFile)],
    ['load average', `${fixed(loadavg()[0], 2)} (1 min) at the end`]
  ])
}
