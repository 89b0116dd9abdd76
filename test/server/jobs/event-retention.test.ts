// The event retention job over a real store: events older than the retention setting go, oldest first
// and in batches (a backlog of thousands is cleared pass after pass), while an error still active stays
// whatever its age; a shorter setting applies at the next pass. Audit log rows go after theirs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EVENT_RETENTION_INTERVAL_MS, EventRetentionJob, pruneExpiredBatch } from '../../../src/server/jobs/event-retention'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import type { Logger } from '../../../src/server/log'
import { fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

const DAY = 86_400
let t: TempStore
let nowSec: number
let job: EventRetentionJob
let errors: string[]
let thread: JobsThread | undefined

beforeEach(() => {
  t = tempStore()
  errors = []
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }
  // The fixture's failure: an active error, with the host and service it needs.
  t.post(fixture('03-event-process-not-running'))
  nowSec = t.store.sql.first(t.store.db.selectFrom('event').select((eb) => eb.fn.max('date').as('date')))!.date as number
  // On PostgreSQL the batches run on the jobs' thread, as the server runs them there.
  const onThread = testEngine === 'postgres' ? (thread = new JobsThread({ database: t.store.location })) : undefined
  job = new EventRetentionJob(
    (sec) => (onThread ? onThread.retentionBatch(sec) : pruneExpiredBatch(t.store, sec)),
    { log },
    () => nowSec * 1000
  )
})
afterEach(async () => {
  job.stop()
  await thread?.close()
  thread = undefined
  t.close()
})

/** Copies of the fixture's event, `ageDays` old, inactive unless `active`. */
function addEvents(count: number, ageDays: number, active = 0): void {
  const model = t.store.sql.first(t.store.db.selectFrom('event').selectAll().orderBy('id').limit(1))!
  t.store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const date = nowSec - ageDays * DAY - i
      const { id: _id, ...row } = model
      t.store.sql.run(t.store.db.insertInto('event').values({ ...row, date, collected_usec: date * 1_000_000 + 1, active }))
    }
  })
}

const countOlderThan = (days: number, active?: number) => {
  let query = t.store.db
    .selectFrom('event')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('date', '<', nowSec - days * DAY)
  if (active !== undefined) query = query.where('active', '=', active)
  return Number(t.store.sql.first(query)!.n)
}

describe('event retention job', () => {
  it('deletes events past a year in batches, keeping active errors and everything younger', async () => {
    addEvents(2500, 400)
    addEvents(1, 500, 1)
    addEvents(10, 100)
    const passes: number[] = []
    for (let next = 0; next !== EVENT_RETENTION_INTERVAL_MS;) passes.push((next = await job.runOnce()))
    // Two full batches, each followed by a quick next pass, then the rest.
    expect(passes).toEqual([1000, 1000, EVENT_RETENTION_INTERVAL_MS])
    expect(countOlderThan(365, 0)).toBe(0)
    expect(countOlderThan(365, 1)).toBe(1)
    expect(countOlderThan(99)).toBe(11)
    expect(errors).toEqual([])
  })

  it('applies a shorter setting at the next pass', async () => {
    addEvents(10, 100)
    await job.runOnce()
    expect(countOlderThan(99)).toBe(10)
    t.store.serverSettings.update({ eventRetentionSec: 30 * DAY })
    await job.runOnce()
    expect(countOlderThan(29)).toBe(0)
  })
})

describe('audit log retention', () => {
  const addAuditRows = (count: number, ageDays: number) =>
    t.store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const at = nowSec - ageDays * DAY - i
        t.store.sql.run(
          t.store.db
            .insertInto('audit_log')
            .values({ at, user_id: null, uname: 'x', address: '127.0.0.1', action: 'login-failed', target: '', detail: '' })
        )
      }
    })
  const auditAges = () =>
    t.store.sql.all(t.store.db.selectFrom('audit_log').select('at').orderBy('at')).map((r) => Math.floor((nowSec - r.at) / DAY))

  it('deletes rows past their own retention (a year unless set), in batches', async () => {
    addAuditRows(1500, 400)
    addAuditRows(2, 100)
    const passes: number[] = []
    for (let next = 0; next !== EVENT_RETENTION_INTERVAL_MS;) passes.push((next = await job.runOnce()))
    expect(passes).toEqual([1000, EVENT_RETENTION_INTERVAL_MS])
    expect(auditAges()).toEqual([100, 100])
    t.store.serverSettings.update({ auditRetentionSec: 30 * DAY })
    await job.runOnce()
    expect(auditAges()).toEqual([])
    expect(errors).toEqual([])
  })
})
