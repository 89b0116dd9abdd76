// The background job: it works in bounded slices and yields between them, so the event loop keeps
// serving (timers here stand for HTTP requests) while a large rollup runs.
import { afterEach, describe, expect, it } from 'vitest'
import { HistoryRollupJob } from '../../../src/server/jobs/history-rollup'
import { ROLL_GRACE_SECONDS } from '../../../src/server/history/rollup'
import { silentLogger } from '../../../src/server/log'
import { historySetup, HOUR, type HistorySetup } from './history-setup'

let setup: HistorySetup
afterEach(() => {
  setup.store.close()
  setup.temp.close()
})

/** Six hours of 30-second polls of 200 statistics, ending over an hour ago. */
function backlog(): number {
  const now = Math.floor(Date.now() / 1000)
  const start = now - (now % HOUR) - 8 * HOUR
  for (let t = start; t < start + 6 * HOUR; t += 30)
    setup.raw(
      t,
      setup.ids.map((id, i) => [id, (t % (i + 7)) / 10])
    )
  return start + 6 * HOUR
}

describe('history rollup job', () => {
  it('spends at most about one slice per call and reports whether work remains', () => {
    setup = historySetup(200)
    backlog()
    const job = new HistoryRollupJob(setup.store, { sliceMs: 5 }, { log: silentLogger })
    let slices = 0
    let longest = 0
    for (;;) {
      const started = performance.now()
      const more = job.slice()
      longest = Math.max(longest, performance.now() - started)
      slices++
      if (!more) break
    }
    expect(slices).toBeGreaterThan(5)
    // One step (25 raw rows, 250 blocks, or 16 statistics of a day) may overrun the 5 ms budget; the bound
    // is loose because the test machine is shared.
    expect(longest).toBeLessThan(400)
  })

  it('yields to the event loop between slices while it catches up', async () => {
    setup = historySetup(200)
    const end = backlog()
    const job = new HistoryRollupJob(setup.store, { intervalMs: 1, sliceMs: 5, pauseRatio: 1 }, { log: silentLogger })
    let ticks = 0
    let last = performance.now()
    let longestGap = 0
    const ticker = setInterval(() => {
      const t = performance.now()
      longestGap = Math.max(longestGap, t - last)
      last = t
      ticks++
    }, 1)
    job.start()
    try {
      const deadline = Date.now() + 60_000
      while ((setup.store.history.settings.progress().rolledUntil.minute ?? 0) < end && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    } finally {
      job.stop()
      clearInterval(ticker)
    }
    expect(setup.store.history.settings.progress().rolledUntil.minute).toBeGreaterThanOrEqual(end)
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(end + ROLL_GRACE_SECONDS)
    expect(ticks).toBeGreaterThan(20)
    expect(longestGap).toBeLessThan(400)
  })
})
