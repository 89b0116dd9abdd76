// The server's memory: the built server's resident set (VmRSS) idle after start, then while a fleet of
// agents reports at Monit's pace (each agent once per poll interval, the fleet spread evenly over it,
// real fixture payloads as in the collector benchmark), and once the fleet has stopped.
//
// Idle is read after BENCH_IDLE_SECONDS of quiet: for the first ~8 s (sometimes 16) the start's garbage
// is still held, until V8's memory reducer collects it on a quiet heap; that maximum is printed too.
//
// Sizing: BENCH_AGENTS (1000), BENCH_POLL_SECONDS (30), BENCH_IDLE_SECONDS (30), BENCH_LOAD_SECONDS (90).
// BENCH_CACHE_MIB=n starts the server with `--cache-size n`; unset, the server's default.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { agentRequest, CREDENTIALS, post, type Target } from './collector'
import { buildTraffic } from './collector-payloads'
import { envInt, int, mib, percentile, printRows, processMemory, startPlainServer, verdict, type Benchmark } from './support'

const IDLE_TARGET_MIB = 80
const LOAD_TARGET_MIB = 150
const SAMPLE_MS = 1000
/** After the last message, for the "after" figure: the collector's batches and the jobs have settled. */
const SETTLE_SECONDS = 10
/** How the server reports its page cache at start (server.ts). */
const CACHE_LINE = /SQLite page cache: .*/

interface Settings {
  agents: number
  pollSeconds: number
  idleSeconds: number
  loadSeconds: number
  cacheMib?: number
}

function settings(): Settings {
  return {
    agents: envInt('BENCH_AGENTS', 1000),
    pollSeconds: envInt('BENCH_POLL_SECONDS', 30),
    idleSeconds: envInt('BENCH_IDLE_SECONDS', 30),
    loadSeconds: envInt('BENCH_LOAD_SECONDS', 90),
    cacheMib: process.env.BENCH_CACHE_MIB ? envInt('BENCH_CACHE_MIB', 1) : undefined
  }
}

export const footprintBenchmark: Benchmark = {
  name: 'footprint',
  description: "the server's resident memory idle and with a fleet of agents reporting",
  run: runFootprintBenchmark
}

async function runFootprintBenchmark(): Promise<void> {
  const s = settings()
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-'))
  try {
    const args = ['--init-collector', CREDENTIALS, ...(s.cacheMib === undefined ? [] : ['--cache-size', String(s.cacheMib)])]
    const server = await startPlainServer(dataDir, args)
    try {
      await measure(server, s)
    } finally {
      const code = await server.stop()
      if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    }
  } finally {
    removeDir(dataDir)
  }
}

async function measure(server: BuiltServer, s: Settings): Promise<void> {
  const pid = server.child.pid!
  const rss = () => processMemory(pid)?.rss ?? Number.NaN
  const cache = CACHE_LINE.exec(server.output())?.[0] ?? 'not reported by the server'
  console.log(`${cache}${s.cacheMib === undefined ? ' (the default)' : ` (--cache-size ${s.cacheMib})`}`)

  const starting = new RssSampler(rss)
  await sleep(s.idleSeconds * 1000)
  const idle = rss()
  const startMax = percentile(starting.stop(), 100)

  const sampler = new RssSampler(rss)
  const sent = await sendFleet(server.port, s)
  const during = sampler.stop()
  // The process's peak, between the samples too: the start's transient is below it (printed above).
  const peak = processMemory(pid)?.peakRss ?? Number.NaN
  await sleep(SETTLE_SECONDS * 1000)
  const after = rss()

  const messageRate = s.agents / s.pollSeconds
  console.log(`fleet: ${int(s.agents)} agents, each every ${s.pollSeconds} s (${messageRate.toFixed(1)} msg/s), for ${s.loadSeconds} s`)
  printRows([
    [`RSS after start (max of the first ${s.idleSeconds} s)`, mib(startMax)],
    [`RSS idle (${s.idleSeconds} s after start)`, mib(idle)],
    ['RSS with the fleet p50', mib(percentile(during, 50))],
    ['RSS with the fleet max', mib(percentile(during, 100))],
    [`RSS after (${SETTLE_SECONDS} s later)`, mib(after)],
    ['peak RSS with the fleet (VmHWM)', mib(peak)],
    ['messages', `${int(sent.ok)} stored of ${int(sent.total)}${sent.failed.size > 0 ? `; ${describe(sent.failed)}` : ''}`]
  ])
  console.log(verdict(`idle ≤ ${IDLE_TARGET_MIB} MiB`, idle <= IDLE_TARGET_MIB * 2 ** 20, mib(idle)))
  console.log(verdict(`with ${int(s.agents)} agents ≤ ${LOAD_TARGET_MIB} MiB`, peak <= LOAD_TARGET_MIB * 2 ** 20, `peak ${mib(peak)}`))
  console.log(verdict('no errors', sent.failed.size === 0, `${int(sent.total - sent.ok)} not stored`))
}

/** Reads the server's RSS every second until stopped; the samples in ascending order. */
class RssSampler {
  private readonly samples: number[] = []
  private readonly timer: NodeJS.Timeout

  constructor(read: () => number) {
    this.timer = setInterval(() => this.samples.push(read()), SAMPLE_MS)
  }

  stop(): number[] {
    clearInterval(this.timer)
    return this.samples.sort((a, b) => a - b)
  }
}

interface Sent {
  total: number
  ok: number
  failed: Map<string, number>
}

const describe = (failed: Map<string, number>): string => [...failed].map(([what, n]) => `${n} × ${what}`).join(', ')

/**
 * Every agent's messages, one per poll interval, the agents evenly spread over it: the first round
 * registers them (as a fleet that starts with the server), the next ones are their reports.
 */
async function sendFleet(port: number, s: Settings): Promise<Sent> {
  const rounds = Math.max(1, Math.ceil(s.loadSeconds / s.pollSeconds))
  // Each round carries the time it is sent in, as agents report: history then grows as it does in use.
  const startSec = Math.floor(Date.now() / 1000)
  const traffic = buildTraffic(s.agents, s.agents * (rounds - 1), (seq) => startSec + seq * s.pollSeconds)
  const target: Target = { port, authorization: `Basic ${Buffer.from(CREDENTIALS).toString('base64')}` }
  const wires = [...traffic.warmup, ...traffic.messages].map((p) => agentRequest(target, p))
  const spacingMs = (s.pollSeconds * 1000) / s.agents
  const failed = new Map<string, number>()
  let ok = 0
  const start = Date.now()
  const answers: Promise<void>[] = []
  for (let i = 0; i < wires.length; i++) {
    const due = start + i * spacingMs
    if (due > Date.now()) await sleep(due - Date.now())
    answers.push(
      post(target, wires[i]).then((outcome) => {
        if (outcome === 'ok') ok++
        else failed.set(outcome, (failed.get(outcome) ?? 0) + 1)
      })
    )
  }
  await Promise.all(answers)
  return { total: wires.length, ok, failed }
}
