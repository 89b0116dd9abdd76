// The background job: it works in bounded slices and yields between them, so the event loop keeps
// serving (timers here stand for HTTP requests) while a large rollup runs.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HistoryRollupJob } from '../../../src/server/jobs/history-rollup'
import { ROLL_GRACE_SECONDS } from '../../../src/server/history/rollup'
import { silentLogger } from '../../../src/server/log'
import { waitFor } from '../../support/wait'
import { historySetup, HOUR, type HistorySetup } from './history-setup'

let setup: HistorySetup
afterEach(() => {
  vi.restoreAllMocks()
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
  it('ends a slice at the first step past its time budget, and reports whether work remains', () => {
    setup = historySetup(200)
    const end = backlog()
    const job = new HistoryRollupJob(setup.store, { sliceMs: 5 }, { log: silentLogger })
    // A clock that moves 2 ms a step, however fast the machine: a slice of 5 ms ends after its third step.
    let clockMs = 0
    vi.spyOn(performance, 'now').mockImplementation(() => clockMs)
    const step = job.rollup.step.bind(job.rollup)
    let steps = 0
    vi.spyOn(job.rollup, 'step').mockImplementation((now) => {
      clockMs += 2
      steps++
      return step(now)
    })
    const stepsPerSlice: number[] = []
    for (let more = true; more;) {
      steps = 0
      more = job.slice()
      stepsPerSlice.push(steps)
    }
    const withWorkLeft = stepsPerSlice.slice(0, -1)
    expect(withWorkLeft.length).toBeGreaterThan(5)
    expect(withWorkLeft).toEqual(withWorkLeft.map(() => 3))
    expect(stepsPerSlice.at(-1)).toBeLessThanOrEqual(3)
    expect(setup.store.history.settings.progress().rolledUntil.minute).toBeGreaterThanOrEqual(end)
  })

  it('yields to the event loop between slices while it catches up', async () => {
    setup = historySetup(200)
    const end = backlog()
    const job = new HistoryRollupJob(setup.store, { intervalMs: 1, sliceMs: 5, pauseRatio: 1 }, { log: silentLogger })
    // What ran in turn: the job's slices, and a timer standing for the HTTP requests waiting meanwhile.
    const turns: ('slice, work left' | 'slice, done' | 'timer')[] = []
    const slice = job.slice.bind(job)
    vi.spyOn(job, 'slice').mockImplementation((nowMs) => {
      const more = slice(nowMs)
      turns.push(more ? 'slice, work left' : 'slice, done')
      return more
    })
    const ticker = setInterval(() => {
      if (turns.at(-1) !== 'timer') turns.push('timer')
    }, 1)
    job.start()
    try {
      await waitFor('the backlog rolled up', () => (setup.store.history.settings.progress().rolledUntil.minute ?? 0) >= end, 60_000, 20)
    } finally {
      job.stop()
      clearInterval(ticker)
    }
    expect(setup.store.history.settings.progress().rolledUntil.minute).toBeGreaterThanOrEqual(end)
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(end + ROLL_GRACE_SECONDS)
    expect(turns.filter((t) => t === 'slice, work left').length).toBeGreaterThan(5)
    // The timer, due before the pause after a slice ends, runs before the next slice.
    expect(turns.filter((t, i) => t === 'slice, work left' && i + 1 < turns.length && turns[i + 1] !== 'timer')).toEqual([])
  })
})
