// The session sweep as a job over a real store: it ends idle sessions on each pass, and a failing pass is
// logged once and tried again instead of taking the process down. On PostgreSQL the sweep runs on the
// jobs' thread, as the server runs it there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SessionService } from '../../../src/server/auth/sessions'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import { SessionSweepJob } from '../../../src/server/jobs/session-sweep'
import type { Logger } from '../../../src/server/log'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

const T0 = 1_800_000_000 // s
let t: TempStore
let clock: number
let errors: string[]
let failures: number
let job: SessionSweepJob
let sessions: SessionService
let thread: JobsThread | undefined
beforeEach(() => {
  t = tempStore()
  clock = T0
  errors = []
  failures = 0
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }
  // Stored, as the jobs' thread reads it from its own connection.
  t.store.serverSettings.update({ sessionTimeoutSec: 600 })
  sessions = new SessionService(
    t.store.sessions,
    () => t.store.serverSettings.sessionTimeoutSec(),
    () => clock
  )
  const onThread = testEngine === 'postgres' ? (thread = new JobsThread({ database: t.store.location })) : undefined
  job = new SessionSweepJob(
    (nowSec) => (onThread ? onThread.sessionSweep(nowSec) : sessions.sweepExpired(nowSec)),
    { log, onError: () => void failures++ },
    undefined,
    () => clock * 1000
  )
})
afterEach(async () => {
  job.stop()
  await thread?.close()
  thread = undefined
  t.close()
})

describe('session sweep job', () => {
  it('ends the sessions idle past the timeout setting on each pass', async () => {
    const idle = sessions.create()
    clock += 601
    const fresh = sessions.create()
    await job.runOnce()
    expect(t.store.sessions.find(idle.id)).toBeUndefined()
    expect(t.store.sessions.find(fresh.id)).toBeDefined()
    clock += 601
    await job.runOnce()
    expect(t.store.sessions.find(fresh.id)).toBeUndefined()
    expect(errors).toEqual([])
  })

  it('logs a failing pass once, goes on trying, and sweeps once it works again', async () => {
    const idle = sessions.create()
    clock += 601
    t.store.sql.plain.exec('ALTER TABLE session RENAME TO session_away')
    await expect(job.runOnce()).resolves.toBe(60_000)
    await expect(job.runOnce()).resolves.toBe(60_000)
    expect(failures).toBe(2)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^session sweep failed: /)
    t.store.sql.plain.exec('ALTER TABLE session_away RENAME TO session')
    await job.runOnce()
    expect(t.store.sessions.find(idle.id)).toBeUndefined()
  })
})
