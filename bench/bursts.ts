// One agent cannot stall the others: what oversized and hostile collector bodies cost everyone else.
// Against the built server, a prober times small requests (GET /health and a normal heartbeat of
// another agent, every PROBE_EVERY_MS) while
//   1. one agent posts a 100,000-service heartbeat (gzip, ~27 MB of XML), BENCH_BIG_POSTS (3) times;
//   2. BENCH_FUZZ_SENDERS (4) senders post multi-megabyte bodies for BENCH_FUZZ_SECONDS (20): random
//      bytes, gzip bombs, garbled XML, and messages with thousands of services, plain and gzip.
// It prints the probes' latencies against an idle baseline and the server's RSS before, at its peak
// and BENCH_SETTLE_SECONDS (10) after each phase. There is no target: the figures go to docs/performance.md.
import { mkdtempSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { removeDir, type BuiltServer } from '../test/support/built-server'
import { largeHeartbeat } from '../test/support/large-messages'
import { asAgent, fixture } from '../test/support/fixtures'
import { envInt, fixed, int, mib, mulberry32, percentile, printRows, processMemory, startPlainServer, type Benchmark } from './support'

const CREDENTIALS = 'bench:bench'
const AUTH = `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`
const PROBE_EVERY_MS = 25
const REQUEST_TIMEOUT_MS = 60_000

export const burstsBenchmark: Benchmark = {
  name: 'bursts',
  description: "oversized and hostile collector bodies vs. other agents' latency and the server's RSS",
  run: runBurstsBenchmark
}

interface Answer {
  status: number
  ms: number
}

function send(baseUrl: string, method: string, path: string, body?: Buffer, gzip = false): Promise<Answer> {
  const started = performance.now()
  const headers: Record<string, string | number> = { Authorization: AUTH }
  if (body)
    Object.assign(headers, { 'Content-Type': 'text/xml', 'Content-Length': body.length }, gzip ? { 'Content-Encoding': 'gzip' } : {})
  return new Promise((resolve) => {
    const req = request(`${baseUrl}${path}`, { method, headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }))
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    // A refusal may come before the whole body is sent: the status is what counts.
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }))
    req.end(body)
  })
}

/** Probes every PROBE_EVERY_MS until stopped: /health and a heartbeat of its own agent, each timed. */
function startProber(baseUrl: string) {
  const heartbeat = gzipSync(asAgent(fixture('02-status-heartbeat'), 'b0a7' + '0'.repeat(28)))
  const health: number[] = []
  const heartbeats: number[] = []
  const failures: string[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const [h, b] = await Promise.all([send(baseUrl, 'GET', '/health'), send(baseUrl, 'POST', '/collector', heartbeat, true)])
      health.push(h.ms)
      heartbeats.push(b.ms)
      if (h.status !== 200 || b.status !== 200) failures.push(`${h.status}/${b.status}`)
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { health: health.sort((a, b) => a - b), heartbeats: heartbeats.sort((a, b) => a - b), failures }
    }
  }
}

const latencies = (sorted: number[]): string =>
  `n=${sorted.length} p50 ${fixed(percentile(sorted, 50), 1)} ms, p99 ${fixed(percentile(sorted, 99), 1)} ms, max ${fixed(sorted.at(-1) ?? Number.NaN, 1)} ms`

/** Samples the server's RSS every 100 ms until stopped; returns the highest seen. */
function watchRss(pid: number) {
  let peak = 0
  const sample = () => (peak = Math.max(peak, rss(pid)))
  const timer = setInterval(sample, 100).unref()
  sample()
  return { stop: () => (clearInterval(timer), sample()) }
}

const rss = (pid: number): number => processMemory(pid)?.rss ?? 0

async function phase(server: BuiltServer, name: string, work: () => Promise<string[]>): Promise<void> {
  const pid = server.child.pid!
  const settleSeconds = envInt('BENCH_SETTLE_SECONDS', 10)
  const before = rss(pid)
  const peak = watchRss(pid)
  const prober = startProber(server.baseUrl)
  const outcome = await work()
  const probes = await prober.stop()
  const peakRss = peak.stop()
  await new Promise((r) => setTimeout(r, settleSeconds * 1000))
  console.log(`${name}:`)
  printRows([
    ['outcome', outcome.join('; ')],
    ['GET /health meanwhile', latencies(probes.health)],
    ['heartbeat meanwhile', latencies(probes.heartbeats)],
    ['probe failures', probes.failures.length === 0 ? 'none' : probes.failures.slice(0, 10).join(', ')],
    ['server RSS', `${mib(before)} before, peak ${mib(peakRss)}, ${mib(rss(pid))} ${settleSeconds} s after`]
  ])
}

/** Multi-megabyte bodies of every kind a hostile or broken client might send, made once up front. */
function fuzzBodies(): { label: string; body: Buffer; gzip: boolean }[] {
  const random = mulberry32(12)
  const noise = (bytes: number) => Buffer.from(Array.from({ length: bytes }, () => Math.floor(random() * 256)))
  const big = largeHeartbeat('f022' + '0'.repeat(28), { services: 10_000, portTestsPerService: 2 })
  const garbled = Buffer.from(big)
  for (let i = 0; i < garbled.length; i += 997) garbled[i] = Math.floor(random() * 256)
  return [
    { label: 'random 3 MiB', body: noise(3 * 2 ** 20), gzip: false },
    { label: 'random bytes as gzip', body: noise(3 * 2 ** 20), gzip: true },
    { label: 'gzip bomb', body: gzipSync(Buffer.alloc(64 * 2 ** 20, 0x20)), gzip: true },
    { label: 'garbled XML', body: gzipSync(garbled), gzip: true },
    { label: '10,000 services cut at 4 MiB, plain', body: big.subarray(0, Math.min(big.length, 4 * 2 ** 20 - 1)), gzip: false },
    { label: '10,000 services gzip', body: gzipSync(big), gzip: true },
    { label: '20,000 services gzip', body: gzipSync(largeHeartbeat('f024' + '0'.repeat(28), { services: 20_000 })), gzip: true },
    { label: '100,000 services gzip', body: gzipSync(largeHeartbeat('f023' + '0'.repeat(28), { services: 100_000 })), gzip: true }
  ]
}

async function runBurstsBenchmark(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-bursts-'))
  const server = await startPlainServer(dataDir, ['--init-collector', CREDENTIALS])
  try {
    await phase(server, 'idle (baseline)', async () => {
      await new Promise((r) => setTimeout(r, 3000))
      return ['nothing else sent for 3 s']
    })

    const big = gzipSync(largeHeartbeat('b1b1' + '0'.repeat(28), { services: 100_000 }))
    await phase(server, `one agent posts 100,000 services (${int(big.length / 1024)} KiB gzip)`, async () => {
      const answers: string[] = []
      for (let i = 0; i < envInt('BENCH_BIG_POSTS', 3); i++) {
        const a = await send(server.baseUrl, 'POST', '/collector', big, true)
        answers.push(`${a.status} in ${int(a.ms)} ms`)
      }
      return answers
    })

    const bodies = fuzzBodies()
    const seconds = envInt('BENCH_FUZZ_SECONDS', 20)
    await phase(server, `fuzz: ${envInt('BENCH_FUZZ_SENDERS', 4)} senders, ${seconds} s of multi-megabyte bodies`, async () => {
      const statuses = new Map<string, number>()
      const slowest = new Map<string, number>()
      const until = Date.now() + seconds * 1000
      let next = 0
      await Promise.all(
        Array.from({ length: envInt('BENCH_FUZZ_SENDERS', 4) }, async () => {
          while (Date.now() < until) {
            const b = bodies[next++ % bodies.length]
            const a = await send(server.baseUrl, 'POST', '/collector', b.body, b.gzip)
            const key = `${b.label} → ${a.status}`
            statuses.set(key, (statuses.get(key) ?? 0) + 1)
            slowest.set(b.label, Math.max(slowest.get(b.label) ?? 0, a.ms))
          }
        })
      )
      return [...statuses].map(([k, n]) => `${k} ×${n} (slowest ${int(slowest.get(k.split(' → ')[0]) ?? 0)} ms)`)
    })
  } finally {
    const code = await server.stop()
    if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    removeDir(dataDir)
  }
}
