// The background job: it works in bounded slices and yields between them, so the event loop keeps
// serving (timers here stand for HTTP requests) while a large rollup runs; on PostgreSQL the slices run on
// the jobs' thread, and a statement held by a lock there holds nothing on the event loop.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HistoryRollupJob } from '../../../src/server/jobs/history-rollup'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import { Rollup, ROLL_GRACE_SECONDS } from '../../../src/server/history/rollup'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { silentLogger } from '../../../src/server/log'
import { eventLoopTurnsWhileWaitingOn } from '../../support/held-by-lock'
import { testEngine } from '../../support/test-database'
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

const rolledUntil = () => setup.store.history.settings.progress().rolledUntil.minute ?? 0

describe('history rollup job', () => {
  it('ends a slice at the first step past its time budget, and reports whether work remains', () => {
    setup = historySetup(200)
    const end = backlog()
    const rollup = new Rollup(setup.store.history, setup.store.sql)
    // A clock that moves 2 ms a step, however fast the machine: a slice of 5 ms ends after its third step.
    let clockMs = 0
    vi.spyOn(performance, 'now').mockImplementation(() => clockMs)
    const step = rollup.step.bind(rollup)
    let steps = 0
    vi.spyOn(rollup, 'step').mockImplementation((now) => {
      clockMs += 2
      steps++
      return step(now)
    })
    const stepsPerSlice: number[] = []
    for (let more = true; more;) {
      steps = 0
      more = rollup.slice(Math.floor(Date.now() / 1000), 5)
      stepsPerSlice.push(steps)
    }
    const withWorkLeft = stepsPerSlice.slice(0, -1)
    expect(withWorkLeft.length).toBeGreaterThan(5)
    expect(withWorkLeft).toEqual(withWorkLeft.map(() => 3))
    expect(stepsPerSlice.at(-1)).toBeLessThanOrEqual(3)
    expect(rolledUntil()).toBeGreaterThanOrEqual(end)
  })

  it('yields to the event loop between slices while it catches up', async () => {
    setup = historySetup(200)
    const end = backlog()
    const rollup = new Rollup(setup.store.history, setup.store.sql)
    const job = new HistoryRollupJob(rollup, { intervalMs: 1, sliceMs: 5, pauseRatio: 1 }, { log: silentLogger })
    // What ran in turn: the job's slices, and a timer standing for the HTTP requests waiting meanwhile.
    const turns: ('slice, work left' | 'slice, done' | 'timer')[] = []
    const slice = rollup.slice.bind(rollup)
    vi.spyOn(rollup, 'slice').mockImplementation((now, budgetMs) => {
      const more = slice(now, budgetMs)
      turns.push(more ? 'slice, work left' : 'slice, done')
      return more
    })
    const ticker = setInterval(() => {
      if (turns.at(-1) !== 'timer') turns.push('timer')
    }, 1)
    job.start()
    try {
      await waitFor('the backlog rolled up', () => rolledUntil() >= end, 60_000, 20)
    } finally {
      job.stop()
      clearInterval(ticker)
    }
    expect(rolledUntil()).toBeGreaterThanOrEqual(end)
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(end + ROLL_GRACE_SECONDS)
    expect(turns.filter((t) => t === 'slice, work left').length).toBeGreaterThan(5)
    // The timer, due before the pause after a slice ends, runs before the next slice.
    expect(turns.filter((t, i) => t === 'slice, work left' && i + 1 < turns.length && turns[i + 1] !== 'timer')).toEqual([])
  })

  it.skipIf(testEngine !== 'postgres')(
    "on PostgreSQL, rolls up on the jobs' thread: while another session locks the blocks, the event loop runs on and the rollup waits, then finishes",
    async () => {
      setup = historySetup(200)
      const end = backlog()
      const thread = new JobsThread({ database: setup.store.location })
      const failures: unknown[] = []
      const job = new HistoryRollupJob(
        { slice: (now, budgetMs) => thread.rollupSlice(now, budgetMs) },
        { intervalMs: 20, sliceMs: 5, pauseRatio: 1 },
        { log: silentLogger, onError: (e) => void failures.push(e) }
      )
      const holder = new SyncConnection(setup.store.location)
      try {
        holder.query('BEGIN')
        holder.query('LOCK TABLE history_minute IN ACCESS EXCLUSIVE MODE')
        job.start()
        // The thread's first write waits on the lock for as long as it is held (no lock timeout given).
        await eventLoopTurnsWhileWaitingOn(holder, 'history_minute')
        expect(rolledUntil()).toBeLessThan(end)
        holder.query('ROLLBACK')
        await waitFor('the backlog rolled up', () => rolledUntil() >= end, 60_000, 20)
      } finally {
        job.stop()
        await thread.close()
        holder.close()
      }
      expect(failures).toEqual([])
    },
    90_000
  )

  it.skipIf(testEngine !== 'postgres')(
    'on PostgreSQL, fails a slice whose thread cannot open its store, and starts a new thread for the next',
    async () => {
      setup = historySetup(3)
      const thread = new JobsThread({ database: 'postgres://nobody@127.0.0.1:1/none' })
      await expect(thread.rollupSlice(Math.floor(Date.now() / 1000), 5)).rejects.toThrow(/ECONNREFUSED|connect/)
      await expect(thread.rollupSlice(Math.floor(Date.now() / 1000), 5)).rejects.toThrow(/ECONNREFUSED|connect/)
      await thread.close()
    }
  )
})
