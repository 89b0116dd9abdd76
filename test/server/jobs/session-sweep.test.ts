// The session sweep as a job over a real store: it ends idle sessions on each pass, and a failing pass is
// logged once and tried again instead of taking the process down.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SessionService } from '../../../src/server/auth/sessions'
import { SessionSweepJob } from '../../../src/server/jobs/session-sweep'
import type { Logger } from '../../../src/server/log'
import { tempStore, type TempStore } from '../../support/temp-store'

const T0 = 1_800_000_000 // s
let t: TempStore
let clock: number
let errors: string[]
let failures: number
let job: SessionSweepJob
let sessions: SessionService
beforeEach(() => {
  t = tempStore()
  clock = T0
  errors = []
  failures = 0
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }
  sessions = new SessionService(
    t.store.sessions,
    () => 600,
    () => clock
  )
  job = new SessionSweepJob(sessions, { log, onError: () => failures++ })
})
afterEach(() => {
  job.stop()
  t.close()
})

describe('session sweep job', () => {
  it('ends the sessions idle past the timeout setting on each pass', () => {
    const idle = sessions.create()
    clock += 601
    const fresh = sessions.create()
    job.runOnce()
    expect(t.store.sessions.find(idle.id)).toBeUndefined()
    expect(t.store.sessions.find(fresh.id)).toBeDefined()
    clock += 601
    job.runOnce()
    expect(t.store.sessions.find(fresh.id)).toBeUndefined()
    expect(errors).toEqual([])
  })

  it('logs a failing pass once, goes on trying, and sweeps once it works again', () => {
    const idle = sessions.create()
    clock += 601
    t.store.sql.plain.exec('ALTER TABLE session RENAME TO session_away')
    expect(() => {
      job.runOnce()
      job.runOnce()
    }).not.toThrow()
    expect(failures).toBe(2)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^session sweep failed: /)
    t.store.sql.plain.exec('ALTER TABLE session_away RENAME TO session')
    job.runOnce()
    expect(t.store.sessions.find(idle.id)).toBeUndefined()
  })
})
