// Alerting's cost on the collector (issue 13): the collector benchmark's HTTP load (real payloads, many
// agents, a new connection per message) against the built server without alert rules, and with
// BENCH_ALERT_RULES (20) active rules, each with its own webhook channel to a receiver in this process
// that answers after BENCH_ALERT_RECEIVER_MS (5,000 ms): a slow channel. The rules' group wait is
// BENCH_ALERT_GROUP_WAIT seconds (1), so the delivery job groups and sends while the load runs.
// The two configurations run BENCH_ALERT_ROUNDS (3) times each, interleaved (ABBA…), each on a fresh
// server and database; the medians are compared, messages per second and CPU per message on the
// ingest thread (where matching and the outbox rows are written, in the event's transaction) and on
// the main thread (HTTP, and the delivery job's passes). On a shared machine the CPU figures are the
// steadier ones. The collector benchmark's sizing variables apply (BENCH_AGENTS, …), BENCH_MESSAGES with a
// default of 40,000 here (about 15–20 s per run), so that each slow channel answers a few times per run.
// Before that, the delivery job's passes alone, in this process (bench/delivery-passes.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildTraffic } from './collector-payloads'
import { measureHttp, rate, settings, type HttpRun, type Settings } from './collector'
import { measureDeliveryPasses } from './delivery-passes'
import { envInt, fixed, int, printRows, verdict, type Benchmark } from './support'

const MAX_SLOWDOWN = 0.1
const DEFAULT_MESSAGES = 40_000

export const alertingBenchmark: Benchmark = {
  name: 'alerting',
  description: "the delivery job's passes; collector throughput with 20 alert rules and a slow webhook channel vs. without rules",
  run: runAlertingBenchmark
}

/** A webhook receiver that takes its time: counts what it received and what it answered. */
interface SlowReceiver {
  url: string
  received: number
  answered: number
  close(): Promise<void>
}

async function startSlowReceiver(delayMs: number): Promise<SlowReceiver> {
  const timers = new Set<NodeJS.Timeout>()
  const receiver = {
    url: '',
    received: 0,
    answered: 0,
    close: async () => {
      timers.forEach(clearTimeout)
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    receiver.received++
    req.resume()
    req.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        // A server stopped meanwhile aborted its request: that is no answer.
        if (res.destroyed || req.socket.destroyed) return
        receiver.answered++
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')
      }, delayMs)
      timers.add(timer)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return receiver
}

interface Sample {
  rules: number
  run: HttpRun
  /** Webhook requests the receiver got and answered during this run */
  received: number
  answered: number
}

const ingestUs = (r: HttpRun) => (r.serverCpu ? (r.serverCpu.busiestOther / r.sent) * 1e6 : Number.NaN)
const mainUs = (r: HttpRun) => (r.serverCpu ? (r.serverCpu.main / r.sent) * 1e6 : Number.NaN)
const serverUs = (r: HttpRun) => (r.serverCpu ? (r.serverCpu.total / r.sent) * 1e6 : Number.NaN)

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function runAlertingBenchmark(): Promise<void> {
  await measureDeliveryPasses()
  // Longer than the collector benchmark's default, so that each slow channel answers a few times within a run.
  const base = { ...settings(), messages: envInt('BENCH_MESSAGES', DEFAULT_MESSAGES) }
  const rules = envInt('BENCH_ALERT_RULES', 20)
  const rounds = envInt('BENCH_ALERT_ROUNDS', 3)
  const delayMs = envInt('BENCH_ALERT_RECEIVER_MS', 5_000)
  const groupWaitSec = envInt('BENCH_ALERT_GROUP_WAIT', 1)
  const traffic = buildTraffic(base.agents, base.messages)
  console.log(
    `payloads: ${int(base.messages)} messages from ${int(base.agents)} agents (${traffic.kindNames.join(', ')}); ` +
      `concurrency ${base.concurrency}, a new connection per message; 0 vs ${rules} rules (group wait ${groupWaitSec} s), ` +
      `one webhook channel each to a receiver answering after ${fixed(delayMs / 1000, 1)} s; ${rounds} rounds, interleaved`
  )

  const receiver = await startSlowReceiver(delayMs)
  const samples: Sample[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      // ABBA: neither configuration always runs first, after the other's leftovers.
      const order = round % 2 === 0 ? [0, rules] : [rules, 0]
      for (const n of order) {
        const s: Settings = { ...base, alertRules: n, alertOptions: { url: receiver.url, groupWaitSec } }
        const before = { received: receiver.received, answered: receiver.answered }
        const run = await measureHttp(traffic.warmup, traffic.messages, s)
        const sample = { rules: n, run, received: receiver.received - before.received, answered: receiver.answered - before.answered }
        samples.push(sample)
        printSample(round, sample)
      }
    }
  } finally {
    await receiver.close()
  }
  printSummary(samples, rules)
}

function printSample(round: number, { rules, run, received, answered }: Sample): void {
  const errors = [...run.errors.values()].reduce((a, b) => a + b, 0)
  console.log(
    `  round ${round + 1}, ${String(rules).padStart(2)} rules: ${int(rate(run)).padStart(5)} msg/s, ` +
      `CPU µs/msg ingest ${int(ingestUs(run))}, main ${int(mainUs(run))}, server ${int(serverUs(run))}; ` +
      `${int(run.outboxRows)} outbox rows, ${int(run.notifications.made)} notifications (${int(run.notifications.delivered)} delivered), ` +
      `receiver ${received} received / ${answered} answered; ${errors} errors, ${fixed(run.seconds, 1)} s`
  )
}

function printSummary(samples: readonly Sample[], rules: number): void {
  const of = (n: number) => samples.filter((s) => s.rules === n)
  const stats = (set: readonly Sample[]) => ({
    rate: median(set.map((s) => rate(s.run))),
    ingest: median(set.map((s) => ingestUs(s.run))),
    main: median(set.map((s) => mainUs(s.run))),
    server: median(set.map((s) => serverUs(s.run))),
    outbox: median(set.map((s) => s.run.outboxRows)),
    delivered: median(set.map((s) => s.run.notifications.delivered)),
    received: median(set.map((s) => s.received)),
    errors: set.reduce((sum, s) => sum + [...s.run.errors.values()].reduce((a, b) => a + b, 0), 0)
  })
  const none = stats(of(0))
  const some = stats(of(rules))
  const ratio = some.rate / none.rate
  console.log(`medians over ${of(0).length} runs each:`)
  printRows([
    ['no rules', `${int(none.rate)} msg/s; CPU µs/msg ingest ${int(none.ingest)}, main ${int(none.main)}, server ${int(none.server)}`],
    [
      `${rules} rules, slow channel`,
      `${int(some.rate)} msg/s; CPU µs/msg ingest ${int(some.ingest)}, main ${int(some.main)}, server ${int(some.server)}; ` +
        `${int(some.outbox)} outbox rows, ${int(some.delivered)} deliveries recorded, ${int(some.received)} webhook requests received`
    ],
    ['throughput ratio', fixed(ratio, 3)],
    ['ingest CPU ratio', fixed(some.ingest / none.ingest, 3)],
    ['server CPU ratio', fixed(some.server / none.server, 3)]
  ])
  console.log(
    verdict(
      `with rules within ${Math.round(MAX_SLOWDOWN * 100)} % of without (median msg/s)`,
      ratio >= 1 - MAX_SLOWDOWN,
      `${fixed((1 - ratio) * 100, 1)} % slower`
    )
  )
  console.log(verdict('no errors', none.errors + some.errors === 0, `${none.errors + some.errors} errors`))
}
