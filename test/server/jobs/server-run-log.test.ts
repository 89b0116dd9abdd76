// The server's run log over a real store (SQLite file, or PostgreSQL database through the jobs' thread as
// in the server): start, alive stamps, clean stop, and failures that are logged once instead of thrown (a
// timer must never take the process down).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reportsHeldElsewhere, ServerRunLog } from '../../../src/server/jobs/server-run-log'
import type { Logger } from '../../../src/server/log'
import { callsAsTheServerMakes, closeJobsThreads } from '../../support/jobs-thread-calls'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

const T0 = 1_800_000_000_000 // ms
let t: TempStore
let errors: string[]
/** Failed passes, each handed to onError; only the first of a kind is logged. */
let failures: number
let nowMs: number
let runLog: ServerRunLog
beforeEach(() => {
  t = tempStore()
  errors = []
  failures = 0
  nowMs = T0
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }
  runLog = new ServerRunLog(callsAsTheServerMakes(t.store, 'serverRuns'), { log, onError: () => void failures++ }, () => nowMs)
})
afterEach(async () => {
  await runLog.stop()
  await closeJobsThreads()
  t.close()
})

const rows = () => t.store.sql.plain.prepare('SELECT started_at, alive_at, stopped_at FROM server_run ORDER BY id').all()
// The engine's own words for the missing table, which the log passes on.
const noRunTable = testEngine === 'postgres' ? 'relation "server_run" does not exist' : 'no such table: server_run'

describe('server run log', () => {
  it('records the start, alive stamps on its own timer and the clean stop', async () => {
    runLog.start(20)
    await expect.poll(rows, { timeout: 10_000 }).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000, stopped_at: null }])
    nowMs = T0 + 10_000
    await expect.poll(rows, { timeout: 10_000 }).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000 + 10, stopped_at: null }])
    nowMs = T0 + 12_000
    await runLog.stop()
    expect(rows()).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000 + 12, stopped_at: T0 / 1000 + 12 }])
    expect(errors).toEqual([])
  })

  it('logs a failed write once instead of throwing, and records a start it could not store at first', async () => {
    t.store.sql.plain.exec('ALTER TABLE server_run RENAME TO server_run_away')
    runLog.start(20)
    await expect.poll(() => failures, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(new RegExp(`^server run log failed: .*${noRunTable}; tried again every 20 ms`))
    t.store.sql.plain.exec('ALTER TABLE server_run_away RENAME TO server_run')
    nowMs = T0 + 30_000
    await expect.poll(rows, { timeout: 10_000 }).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000 + 30, stopped_at: null }])
    t.store.sql.plain.exec('DROP TABLE server_run')
    await expect(runLog.stop()).resolves.toBeUndefined()
    expect(errors.at(-1)).toBe(`server run log: could not record the clean stop: ${noRunTable}`)
  })

  it('tells another instance while its collector holds reports, not once it stores, stopped, or went silent', async () => {
    const collector: { unavailable: string | undefined } = { unavailable: undefined }
    const other = new ServerRunLog(
      callsAsTheServerMakes(t.store, 'serverRuns'),
      { log: { info: () => {}, warn: () => {}, error: () => {} } },
      () => nowMs,
      collector
    )
    const elsewhere = () => {
      nowMs += 1_000
      return reportsHeldElsewhere(t.store.serverRuns, runLog.id, nowMs)
    }
    try {
      runLog.start(20)
      other.start(20)
      expect(elsewhere()).toBeUndefined()
      collector.unavailable = '55P03'
      await expect.poll(elsewhere, { timeout: 10_000 }).toBe('another instance holds reports')
      expect(reportsHeldElsewhere(t.store.serverRuns, other.id, nowMs), "its own reports are not another's").toBeUndefined()
      collector.unavailable = undefined
      await expect.poll(elsewhere, { timeout: 10_000 }).toBeUndefined()
      collector.unavailable = 'ETIMEDOUT'
      await expect.poll(elsewhere, { timeout: 10_000 }).toBe('another instance holds reports')
      await other.stop()
      expect(elsewhere()).toBeUndefined()
      // A run that went silent (killed) 31 s ago while holding reports counts no more.
      const nowSec = Math.floor(nowMs / 1000)
      t.store.sql.execute('INSERT INTO server_run (started_at, alive_at, reports_held_since) VALUES (?, ?, ?)', [
        nowSec - 60,
        nowSec - 31,
        nowSec - 50
      ])
      expect(elsewhere()).toBeUndefined()
    } finally {
      await other.stop()
    }
  })
})
