// The jobs' thread on PostgreSQL (src/server/jobs/jobs-thread.ts): the heartbeat watchdog's passes run
// there with their own connection, and hand back the live changes to publish. A pass held by another
// session's lock holds only that thread: the event loop turns on meanwhile.
import { afterEach, describe, expect, it } from 'vitest'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'
import { eventLoopTurnsWhileWaitingOn } from '../../support/held-by-lock'

const HOUR_MS = 3_600_000

let t: TempStore | undefined
let thread: JobsThread | undefined
afterEach(async () => {
  await thread?.close()
  t?.close()
})

describe.skipIf(testEngine !== 'postgres')("the jobs' thread", () => {
  it('runs the watchdog: a silent host is marked on the thread, its changes come back; a lock elsewhere holds only the thread', async () => {
    t = tempStore()
    const { hostId } = t.post(fixture('02-status-heartbeat'))
    thread = new JobsThread({ database: t.store.location })
    const now = Date.now()
    // Passes an hour apart (the interval says so: no gap in watching). The first gives every host a full
    // deadline from now; the second, an hour on, finds the host silent.
    expect(await thread.watchdogPass({ nowMs: now, intervalMs: HOUR_MS, collectorUnavailable: undefined, runId: undefined })).toEqual({
      silent: 0,
      changes: []
    })

    const holder = new SyncConnection(t.store.location)
    try {
      holder.query("SET application_name = 'an administrator'")
      holder.query('BEGIN')
      holder.query('LOCK TABLE host IN ACCESS EXCLUSIVE MODE')
      const pass = thread.watchdogPass({ nowMs: now + HOUR_MS, intervalMs: HOUR_MS, collectorUnavailable: undefined, runId: undefined })
      await eventLoopTurnsWhileWaitingOn(holder, 'host')
      holder.query('ROLLBACK')
      const { silent, changes } = await pass
      expect(silent).toBe(1)
      expect(changes).toContainEqual(expect.objectContaining({ kind: 'heartbeat', hostId, alive: false }))
    } finally {
      holder.close()
    }
    // Stored by the thread's own connection: seen from this one.
    expect(
      t.store.sql.rows<{ n: number }>('SELECT count(*) AS n FROM state_interval WHERE host_id = ? AND service_name_id IS NULL', [hostId])[0]
        .n
    ).toBe(1)
  }, 30_000)
})
