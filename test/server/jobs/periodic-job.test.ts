import { describe, expect, it, vi } from 'vitest'
import { PeriodicJob } from '../../../src/server/jobs/periodic-job'
import type { Logger } from '../../../src/server/log'
import { waitFor } from '../../support/wait'

const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function recordingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    log: { info: (m) => lines.push(`INFO ${m}`), warn: (m) => lines.push(`WARN ${m}`), error: (m) => lines.push(`ERROR ${m}`) }
  }
}

describe('PeriodicJob', () => {
  it('runs a pass only while its lease is held, asking before each pass', () => {
    let held = false
    let runs = 0
    const job = new PeriodicJob({
      name: 'leased job',
      intervalMs: 5,
      ...recordingLog(),
      lease: { held: () => held, refresh: () => Promise.resolve(held), close: () => {} },
      run: () => void runs++
    })
    job.runOnce()
    expect(runs).toBe(0)
    held = true
    job.runOnce()
    expect(runs).toBe(1)
  })

  it('never lets a throw out of its timer: each kind of failure is logged once, handed on, retried; recovery is said once', async () => {
    const { log, lines } = recordingLog()
    const handed: unknown[] = []
    // Runs 1–3 fail as on a full disk, 4–5 as a bug would, 6 on work, 7 on fails again.
    let runs = 0
    const intervalMs = 5
    const job = new PeriodicJob({
      name: 'test job',
      intervalMs,
      log,
      onError: (err) => void handed.push(err),
      run: () => {
        runs++
        if (runs <= 3 || runs >= 7) throw diskFull()
        if (runs <= 5) throw new TypeError('a bug')
      }
    })
    job.start()
    await waitFor('nine runs', () => runs >= 9, 5_000, 5)
    job.stop()
    const afterStop = runs
    expect(lines).toEqual([
      'ERROR test job failed: SQLITE_FULL: database or disk is full; tried again every 5 ms (logged once until it works again)',
      expect.stringMatching(
        /^ERROR test job failed: TypeError: a bug\n {4}at .*; tried again every 5 ms \(logged once until it works again\)$/s
      ),
      'INFO test job works again',
      'ERROR test job failed: SQLITE_FULL: database or disk is full; tried again every 5 ms (logged once until it works again)'
    ])
    expect(handed.slice(0, 6).map((err) => (err as Error).message)).toEqual([
      'database or disk is full',
      'database or disk is full',
      'database or disk is full',
      'a bug',
      'a bug',
      'database or disk is full'
    ])
    // Proves absence: six of its intervals pass without a run (a timer left behind would fire first).
    await sleep(6 * intervalMs)
    expect(runs).toBe(afterStop)
  })

  it('waits the delay a run asks for before the next, the interval otherwise', () => {
    // Fake timers: the gaps are exactly the delays the job set, however busy the machine.
    vi.useFakeTimers()
    try {
      const { log } = recordingLog()
      const starts: number[] = []
      const job = new PeriodicJob({
        name: 'sliced job',
        intervalMs: 200,
        log,
        run: () => {
          starts.push(Date.now())
          return starts.length < 4 ? 1 : undefined
        }
      })
      job.start()
      vi.advanceTimersByTime(200 + 3 * 1 + 200)
      job.stop()
      expect(starts.slice(1).map((t, i) => t - starts[i])).toEqual([1, 1, 1, 200])
    } finally {
      vi.useRealTimers()
    }
  })
})
