// The read threads on PostgreSQL (src/server/api/read-threads.ts, issue 29): the pure reads (status,
// reports, lists) run on threads of their own. A read the database holds — here a lock another session
// keeps on the audit log, which nothing of the HTTP thread uses but a login and a change, with the stall
// watch and the lock timeout set beyond the test so that nothing gives the wait up but the read's own
// deadline, which is what a statement that simply runs long meets — is answered 503 "busy" with
// Retry-After at the read wait, holds only its thread, and the HTTP thread answers /health, the other
// reads and the writes meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_QUEUED_READS } from '../../../src/server/api/read-threads'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { httpRequest, type ApiClient, type ApiResponse } from '../../support/api-client'
import { capturedLog, type CapturedLog } from '../../support/captured-log'
import { eventLoopTurnsWhileWaitingOn } from '../../support/held-by-lock'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { testEngine } from '../../support/test-database'

const READ_WAIT_MS = 1_500
const BUSY = /^the server cannot serve its data now: its database is busy, a read waited more than 1\.5 s; try again shortly$/

let server: TestServer
let admin: ApiClient
let logged: CapturedLog
/** A database session of the test's own, as an administrator's. */
let holder: SyncConnection

function expectBusy(res: ApiResponse, why: RegExp = BUSY): void {
  expect(res.status).toBe(503)
  expect(res.headers['retry-after']).toBe('5')
  expect((res.json as { error: string }).error).toMatch(why)
}

/** Runs `during` while `holder` keeps `table` locked against reads, and releases it whatever happens. */
async function whileLocked(table: string, during: () => Promise<void>): Promise<void> {
  holder.query('BEGIN')
  holder.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`)
  try {
    await during()
  } finally {
    holder.query('ROLLBACK')
  }
}

describe.skipIf(testEngine !== 'postgres')('the read threads', () => {
  beforeAll(async () => {
    logged = capturedLog()
    server = await startTestServer({
      log: logged.log,
      databaseReadWaitMs: READ_WAIT_MS,
      databaseReadThreads: 2,
      // Nothing but the read's deadline ends its wait: a statement running long, as far as the HTTP thread knows.
      databaseStallMs: 60_000,
      databaseLockTimeoutMs: 60_000
    })
    await server.addHost('a0000000000000000000000000000001', 'reader-1')
    admin = await server.loginAsAdmin()
    // Both threads started (two reads at once), so that what follows times reads, not a thread's start.
    for (const res of await Promise.all([admin.get('/api/2/status/hosts/list'), admin.get('/api/2/admin/audit/list')])) {
      expect(res.status).toBe(200)
    }
    holder = new SyncConnection(server.store.location)
    holder.query("SET application_name = 'an administrator'")
  }, 60_000)

  afterAll(async () => {
    holder?.close()
    await server?.stopAndClean()
  })

  it('a read the database holds answers 503 busy at the read wait; the other thread, /health and writes answer meanwhile', async () => {
    await whileLocked('audit_log', async () => {
      const startedAt = Date.now()
      const held = admin.get('/api/2/admin/audit/list')
      // The HTTP thread turns on while the read waits on its thread.
      await eventLoopTurnsWhileWaitingOn(holder, 'audit_log')
      expect((await httpRequest(server.baseUrl, 'GET', '/health')).status).toBe(200)
      // The other read thread serves what does not need the locked table…
      const hosts = await admin.get('/api/2/status/hosts/list')
      expect(hosts.status).toBe(200)
      expect((hosts.json as { records: { hostname: string }[] }).records.map((h) => h.hostname)).toEqual(['reader-1'])
      // …and the HTTP thread its own statements, a write among them.
      const csrf = await admin.csrfToken()
      expect((await admin.post('/api/2/session/put', { tab: 'events' }, { CSRFToken: csrf })).status).toBe(200)
      const res = await held
      expectBusy(res)
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(READ_WAIT_MS)
    })
    // The lock gone, the same read is served, by a thread PostgreSQL freed (its statement cancelled).
    await expect.poll(async () => (await admin.get('/api/2/admin/audit/list')).status, { timeout: 10_000 }).toBe(200)
    // Said once in the log, as a slow statement of the HTTP thread was before (metrics/database-waits.ts).
    await expect.poll(() => logged.err().filter((l) => l.includes('database: a statement took')).length, { timeout: 5_000 }).toBe(1)
  }, 60_000)

  it(`queues reads while every thread is busy, each answered by its deadline, and refuses past ${MAX_QUEUED_READS} at once`, async () => {
    await whileLocked('audit_log', async () => {
      const reads = Array.from({ length: MAX_QUEUED_READS + 12 }, () => admin.get('/api/2/admin/audit/list'))
      const answers = await Promise.all(reads)
      // Two were taken by the threads; of the rest, the queue held MAX_QUEUED_READS and refused the others
      // (fewer, if the first deadlines passed before the last reads came).
      const refused = answers.filter((r) => r.status === 503 && /reads wait for the database already/.test(r.text))
      expect(refused.length).toBeGreaterThan(0)
      expect(refused.length).toBeLessThanOrEqual(10)
      for (const r of refused) expectBusy(r, new RegExp(`, ${MAX_QUEUED_READS} reads wait for the database already; try again shortly$`))
      for (const r of answers.filter((a) => !refused.includes(a))) expectBusy(r)
    })
    await expect.poll(async () => (await admin.get('/api/2/admin/audit/list')).status, { timeout: 10_000 }).toBe(200)
  }, 60_000)

  it('keeps the answers of the threads as the HTTP thread would give them: a 404, an argument refused', async () => {
    const missing = await admin.get('/api/2/status/hosts/get', { id: 999_999 })
    expect(missing.status).toBe(404)
    expect(missing.json).toEqual({ error: 'no host with id 999999' })
    const analytics = await admin.get('/api/2/reports/analytics/get', { hostid: 999_999 })
    expect(analytics.status).toBeGreaterThanOrEqual(400)
    expect(analytics.status).toBeLessThan(500)
  })
})
