// PostgreSQL in trouble under the built server with two real Monit 5.33 agents (1 s poll: skew × poll = 3 s)
// and a lock timeout of 1 s, its database reached through a TCP proxy (issue 29). Before, one slow
// dependency took every function down: a lock held on `host` made the watchdog declare every agent dead
// and froze the HTTP thread for as long as it was held; a network black hole made every request, /health
// included, wait for the statement in flight (15.5 s at the median).
// - A lock held longer than a host may stay silent, as a long migration, a VACUUM FULL or an
//   administrator's transaction would hold it: what needs the table answers 503 "busy" with a short
//   Retry-After instead of waiting for the lock (the collector: the agents keep their events queued), what
//   does not still answers, and the log says so once.
// - A black hole (the proxy passes nothing, either way): the HTTP thread gives a stuck statement up after
//   the stall time and answers 503 at once while the database stays silent.
// Throughout, /health keeps answering at once; no live host is declared dead; everything resumes by itself.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'
import { EventClassId } from '../../src/shared/codes'
import { httpRequest } from '../support/api-client'
import { sampleHealth, type HealthSamples } from '../support/health-sampler'
import { ADMIN, startReportingServer, type ReportingServer } from '../support/reporting-server'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { databaseFor, dropDatabaseOf, testEngine } from '../support/test-database'
import { waitFor } from '../support/wait'

const LOCK_TIMEOUT_SEC = 1
const HELD_MS = 5_000 // > skew 3 × poll 1 s + the lock timeout
const BUSY = /^the server cannot serve its data now: its database is busy, a lock is held by another session \(55P03\); try again shortly$/
const UNREACHABLE = /^the server cannot reach its database \(ETIMEDOUT\); try again later$/

let dir: string
let proxy: TcpProxy
let running: ReportingServer
/** A database session of the test's own that holds the lock, as an administrator's would. */
let holder: SyncConnection

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const scrape = () =>
  httpRequest(running.server.baseUrl, 'GET', '/metrics', undefined, {
    Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`
  })
const busyGauge = async () => Number(/^overseer_database_busy (\S+)$/m.exec((await scrape()).text)?.[1])

/**
 * /health answered throughout the trouble, from `fromMs` to `toMs`: answers kept coming in its second half
 * (a thread frozen by it answers only once it ends; before, every request waited for the statement in
 * flight). The latencies are printed, not asserted: they are the machine's as much as the server's
 * (docs/postgresql.md has them measured on a quiet machine).
 */
function answeredThroughout(what: string, samples: HealthSamples, fromMs: number, toMs: number): void {
  const p = (n: number) => samples.percentile(n).toFixed(1)
  console.log(`/health ${what}: ${samples.latencies.length} answers, p50 ${p(50)} ms, p99 ${p(99)} ms, max ${p(100)} ms`)
  expect(samples.failures).toBe(0)
  expect(samples.answeredBetween(fromMs + (toMs - fromMs) / 2, toMs), 'answers in the second half of the trouble').toBeGreaterThan(0)
}

/** What the server logged from `mark` on: a few known lines, no stack trace, still running. */
function loggedSince(mark: number): string {
  const logged = running.server.output().slice(mark)
  expect(logged, 'no stack trace: a known failure').not.toMatch(/^\s+at /m)
  expect(logged).not.toContain('internal server error')
  expect(logged.split('\n').length, logged).toBeLessThan(15)
  expect(running.server.child.exitCode).toBeNull()
  return logged
}

async function resumed(before: number): Promise<void> {
  await waitFor('the agents stored again', () => running.lastDeadline() > before, 20_000)
  await expect.poll(async () => (await running.admin.get('/api/2/status/hosts/list')).status, { timeout: 15_000 }).toBe(200)
}

describe.skipIf(testEngine !== 'postgres')('PostgreSQL in trouble under a running server', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-trouble-'))
    const direct = new URL(databaseFor(dir)!)
    proxy = await startTcpProxy(Number(direct.port))
    const through = new URL(direct)
    through.port = String(proxy.port)
    running = await startReportingServer({
      database: through.toString(),
      observeAt: direct.toString(),
      args: ['--database-lock-timeout', String(LOCK_TIMEOUT_SEC)]
    })
    holder = new SyncConnection(direct.toString())
    holder.query("SET application_name = 'an administrator'")
  }, 60_000)

  afterAll(async () => {
    holder?.close()
    await proxy?.restore()
    await running?.close()
    proxy?.stop()
    dropDatabaseOf(dir)
    rmSync(dir, { recursive: true, force: true })
  })

  // SHARE lets reads through and stops writes; ACCESS EXCLUSIVE stops both.
  it.each([
    { mode: 'SHARE', readsWait: false },
    { mode: 'ACCESS EXCLUSIVE', readsWait: true }
  ])(
    'a lock in $mode mode: answers 503 busy where it needs the table, logs it once and resumes',
    async ({ mode, readsWait }) => {
      const mark = running.server.output().length
      const before = running.lastDeadline()
      const health = sampleHealth(running.server.baseUrl, 10)
      holder.query('BEGIN')
      holder.query(`LOCK TABLE host IN ${mode} MODE`)
      const lockedAt = Date.now()
      try {
        await running.expectCollectorRefused('02-status-heartbeat', 'f0a0000000000000000000000000000b', 5, BUSY)

        const list = await running.admin.get('/api/2/status/hosts/list')
        if (readsWait) {
          expect(list.status).toBe(503)
          expect((list.json as { error: string }).error).toMatch(BUSY)
        } else expect(list.status).toBe(200)
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
      answeredThroughout(`under a ${HELD_MS / 1000} s ${mode} lock`, await health.stop(), lockedAt, Date.now())
      await resumed(before)
      await waitFor(
        'the log saying so',
        () => running.server.output().slice(mark).includes('storage: writing the database works again'),
        15_000
      )
      expect(await busyGauge()).toBe(0)
      const logged = loggedSince(mark)
      expect(logged.match(/storage: writing the database failed: 55P03/g)).toHaveLength(1)
      expect(logged.match(/storage: writing the database works again/g)).toHaveLength(1)
    },
    60_000
  )

  it('a network black hole: keeps /health answering, answers the API 503 at once, and resumes by itself', async () => {
    const HOLE_MS = 6_000 // > skew 3 × poll 1 s, twice
    const mark = running.server.output().length
    const before = running.lastDeadline()
    const health = sampleHealth(running.server.baseUrl, 10)
    await proxy.blackHole()
    const holeAt = Date.now()
    try {
      // The jobs' statements meet the hole first, and are given up after the stall time and an unanswered look of 1 s.
      await sleep(2_000)
      // Answered while the hole lasts: given up by the stall watch (its words are in the log, below), not
      // by the statement timeout (60 s) nor by the database coming back.
      const list = await running.admin.get('/api/2/status/hosts/list')
      expect(list.status).toBe(503)
      expect((list.json as { error: string }).error).toMatch(UNREACHABLE)
      // The balancer's check: this instance cannot reach its database.
      expect((await httpRequest(running.server.baseUrl, 'GET', '/ready')).status).toBe(503)
      await sleep(HOLE_MS - (Date.now() - holeAt))
    } finally {
      await proxy.restore()
    }
    const restoredAt = Date.now()
    // Each of the thread's two connections (the store's, the job lease's) stalls once, for its stall time
    // (0.25 s) and an unanswered look (1 s); every other answer is at once.
    answeredThroughout(`through a ${HOLE_MS / 1000} s black hole`, await health.stop(), holeAt, restoredAt)
    await resumed(before)
    await waitFor(
      'the log saying so',
      () => running.server.output().slice(mark).includes('storage: writing the database works again'),
      15_000
    )
    const logged = loggedSince(mark)
    expect(
      logged.match(/storage: writing the database failed: ETIMEDOUT: PostgreSQL did not answer within 0\.25 s, nor a second connection/g)
    ).toHaveLength(1)
    expect(logged.match(/storage: writing the database works again/g)).toHaveLength(1)
  }, 60_000)

  it('declared no live host dead through any of it', async () => {
    // Proves absence: a few polls later (past skew × poll and a watchdog tick), still nobody declared dead.
    await sleep(4_000)
    expect(running.count('SELECT COUNT(*) AS n FROM event WHERE class = $1', EventClassId.Heartbeat)).toBe(0)
    expect(running.count('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1')).toBe(2)
  })
})
