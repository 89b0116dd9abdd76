// Asks a server's /health every few milliseconds, one request at a time, and keeps when each answer came
// and how long it took: whether the HTTP thread kept answering while something else (its database) was in
// trouble. A thread frozen by the trouble answers nothing until it ends.
import { httpRequest } from './api-client'

export interface HealthSamples {
  /** Milliseconds per answer, in order of asking. */
  latencies: number[]
  /** Answers other than 200. */
  failures: number
  /** How many answers came between the two times (epoch ms). */
  answeredBetween(fromMs: number, toMs: number): number
  /** The latency at this percentile (0–100), for the log: the figures themselves belong to benchmarks. */
  percentile(p: number): number
}

export function sampleHealth(baseUrl: string, everyMs = 50): { stop(): Promise<HealthSamples> } {
  const latencies: number[] = []
  const answeredAt: number[] = []
  let failures = 0
  let running = true
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const res = await httpRequest(baseUrl, 'GET', '/health').catch(() => undefined)
      latencies.push(performance.now() - started)
      answeredAt.push(Date.now())
      if (res?.status !== 200) failures++
      await new Promise((r) => setTimeout(r, everyMs))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      const sorted = [...latencies].sort((a, b) => a - b)
      return {
        latencies,
        failures,
        answeredBetween: (fromMs, toMs) => answeredAt.filter((at) => at >= fromMs && at < toMs).length,
        percentile: (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
      }
    }
  }
}
