// A lock on the `host` table held longer than a host may stay silent (issue 29), as a long migration, a
// VACUUM FULL or an administrator's transaction would hold it, under the built server with two real Monit
// 5.33 agents (1 s poll: skew × poll = 3 s) and a lock timeout of 1 s. While it is held, what needs the
// table answers 503 "busy" with a short Retry-After instead of waiting for the lock (the collector: the
// agents keep their events queued), what does not still answers, and the log says so once; no live host
// is declared dead for the time its reports could not be stored; once the lock is gone, everything
// resumes by itself. Before, the watchdog declared every agent dead and the HTTP thread froze for as long
// as the lock was held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'
import { EventClassId } from '../../src/shared/codes'
import { httpRequest } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { ADMIN, COLLECTOR, startReportingServer, type ReportingServer } from '../support/reporting-server'
import { databaseFor, testEngine } from '../support/test-database'
import { waitFor } from '../support/wait'

const LOCK_TIMEOUT_SEC = 1
const HELD_MS = 5_000 // > skew 3 × poll 1 s + the lock timeout
const BUSY = /^the server cannot serve its data now: its database is busy, a lock is held by another session \(55P03\); try again shortly$/

let running: ReportingServer
/** A database session of the test's own that holds the lock, as an administrator's would. */
let holder: SyncConnection

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const scrape = () =>
  httpRequest(running.server.baseUrl, 'GET', '/metrics', undefined, {
    Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`
  })
const busyGauge = async () => Number(/^overseer_database_busy (\S+)$/m.exec((await scrape()).text)?.[1])

describe.skipIf(testEngine !== 'postgres')('a lock held on the host table under a running server', () => {
  beforeAll(async () => {
    running = await startReportingServer({ args: ['--database-lock-timeout', String(LOCK_TIMEOUT_SEC)] })
    holder = new SyncConnection(databaseFor(running.server.dataDir)!)
  }, 60_000)

  afterAll(async () => {
    holder?.close()
    await running?.close()
  })

  // SHARE lets reads through and stops writes; ACCESS EXCLUSIVE stops both.
  it.each([
    { mode: 'SHARE', readsWait: false },
    { mode: 'ACCESS EXCLUSIVE', readsWait: true }
  ])(
    '$mode: answers 503 busy where it needs the table, judges nobody, logs it once and resumes',
    async ({ mode, readsWait }) => {
      const loggedBefore = running.server.output().length
      const before = running.lastDeadline()
      holder.query('BEGIN')
      holder.query(`LOCK TABLE host IN ${mode} MODE`)
      const lockedAt = Date.now()
      try {
        const message = await postCollector(
          running.server.baseUrl,
          asAgent(fixture('02-status-heartbeat'), 'f0a0000000000000000000000000000b'),
          {
            auth: COLLECTOR
          }
        )
        expect(message.status).toBe(503)
        expect(message.headers['retry-after']).toBe('5')
        expect((JSON.parse(message.body) as { error: string }).error).toMatch(BUSY)

        const list = await running.admin.get('/api/2/status/hosts/list')
        if (readsWait) {
          expect(list.status).toBe(503)
          expect((list.json as { error: string }).error).toMatch(BUSY)
        } else expect(list.status).toBe(200)
        expect((await httpRequest(running.server.baseUrl, 'GET', '/health')).status).toBe(200)
        // A lock is on the database every instance shares: no reason to take this one out of a balancer.
        expect((await httpRequest(running.server.baseUrl, 'GET', '/ready')).status).toBe(200)
        // A scrape (its login is written to the audit log, beside the lock) does not end the busy state;
        // under ACCESS EXCLUSIVE it needs the hosts itself, and is answered 503 like the rest.
        if (readsWait) expect((await scrape()).status).toBe(503)
        else expect(await busyGauge()).toBe(1)
        // Every answer came while the lock was still held: nothing waited for it.
        await sleep(HELD_MS - (Date.now() - lockedAt))
      } finally {
        holder.query('COMMIT')
      }

      await waitFor('the agents stored again', () => running.lastDeadline() > before, 15_000)
      await expect.poll(async () => (await running.admin.get('/api/2/status/hosts/list')).status, { timeout: 15_000 }).toBe(200)
      await waitFor(
        'the log saying so',
        () => running.server.output().slice(loggedBefore).includes('storage: writing the database works again'),
        15_000
      )
      expect(await busyGauge()).toBe(0)
      // Proves absence: a few polls later (past skew × poll and a watchdog tick), still nobody declared dead.
      await sleep(4_000)
      expect(running.count('SELECT COUNT(*) AS n FROM event WHERE class = $1', EventClassId.Heartbeat)).toBe(0)
      expect(running.count('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1')).toBe(2)

      const logged = running.server.output().slice(loggedBefore)
      expect(logged, 'no stack trace: a known failure').not.toMatch(/^\s+at /m)
      expect(logged).not.toContain('internal server error')
      expect(logged.match(/storage: writing the database failed: 55P03/g)).toHaveLength(1)
      expect(logged.match(/storage: writing the database works again/g)).toHaveLength(1)
      expect(logged.split('\n').length, logged).toBeLessThan(15)
      expect(running.server.child.exitCode).toBeNull()
    },
    60_000
  )
})
