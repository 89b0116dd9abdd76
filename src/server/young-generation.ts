// V8 doubles a thread's young generation (up to 2 × 16 MiB on 64-bit) whenever enough objects have
// survived its collections, and gives it back only when the thread idles: with agents reporting, the
// main thread's stayed at its largest, some 30 MB of the server's RSS. V8's own cap
// (--max-semi-space-size) can only be given on node's command line, which the headless server's users
// write themselves; the growth factor, though, is read at each growth step. So growth is allowed only
// while the main thread's young generation is below MAX_NEW_SPACE_BYTES. The flag is the process's:
// the ingest thread, capped by its own resourceLimits, grows only while the main thread may.
import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'

/** 2 × 4 MiB: a quarter of V8's default, and the collector's CPU per message stayed within 5 % of it. */
const MAX_NEW_SPACE_BYTES = 8 * 2 ** 20
const V8_DEFAULT_GROWTH_FACTOR = 2

let growthFactor = V8_DEFAULT_GROWTH_FACTOR

function setGrowthFactor(factor: number): void {
  if (factor === growthFactor) return
  setFlagsFromString(`--semi-space-growth-factor=${factor}`)
  growthFactor = factor
}

/** From now on, after each collection: growth is allowed while one more doubling stays within the cap. */
export function capYoungGeneration(): void {
  const adjust = () => {
    const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0
    setGrowthFactor(2 * newSpace <= MAX_NEW_SPACE_BYTES ? V8_DEFAULT_GROWTH_FACTOR : 1)
  }
  new PerformanceObserver(adjust).observe({ entryTypes: ['gc'] })
  adjust()
}
