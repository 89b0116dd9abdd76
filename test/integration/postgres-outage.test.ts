// PostgreSQL gone for a while under a running server (stopped, restarting, failing over), with the built
// server on a cluster of this test's own and two real Monit 5.33 agents (1 s poll: skew × poll = 3 s).
// While it is gone, the collector and the API answer 503 with Retry-After (agents keep their events
// queued, clients try again), the log says so once and not per request, the server stays up; once the
// cluster is back, everything resumes by itself: the agents' reports are stored again, the same login
// still works, and no live host is declared dead for the time the database could not be written.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventClassId } from '../../src/shared/codes'
import { httpRequest } from '../support/api-client'
import { freePort } from '../support/ports'
import { startReportingServer, type ReportingServer } from '../support/reporting-server'
import { testEngine } from '../support/test-database'
import { waitFor } from '../support/wait'

const POSTGRES_SH = resolve(__dirname, '../../scripts/postgres.sh')
const DOWN_MS = 5_000 // > skew 3 × poll 1 s
// A socket error once it is down, or 57P03 from a connection made while it was shutting down.
const UNREACHABLE = /^the server cannot reach its database \((E[A-Z]+|57P0[123])\); try again later$/

let clusterDir: string
let port: number
let running: ReportingServer

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const cluster = (cmd: 'start' | 'stop') =>
  execFileSync(POSTGRES_SH, [cmd, clusterDir, String(port)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

// Its own cluster, to stop and start: the suite's shared one serves the other test files meanwhile.
describe.skipIf(testEngine !== 'postgres')('PostgreSQL stopped and started again under a running server', () => {
  beforeAll(async () => {
    clusterDir = mkdtempSync(join(tmpdir(), 'overseer-outage-pg-'))
    port = await freePort()
    running = await startReportingServer({ database: cluster('start') })
  }, 60_000)

  afterAll(async () => {
    await running?.close()
    if (clusterDir) {
      cluster('stop')
      rmSync(clusterDir, { recursive: true, force: true })
    }
  })

  it('answers 503 while it is gone, logs it once, and resumes by itself when it is back', async () => {
    const loggedBefore = running.server.output().length
    const before = running.lastDeadline()
    cluster('stop')
    const stoppedAt = Date.now()

    await running.expectCollectorRefused('03-event-process-not-running', 'f0a0000000000000000000000000000a', 60, UNREACHABLE)
    const list = await running.admin.get('/api/2/status/hosts/list')
    expect(list.status).toBe(503)
    expect((list.json as { error: string }).error).toMatch(UNREACHABLE)
    expect((await httpRequest(running.server.baseUrl, 'GET', '/health')).status).toBe(200)
    // A load balancer takes the instance out: its path to the database is broken.
    const ready = await httpRequest(running.server.baseUrl, 'GET', '/ready')
    expect(ready.status).toBe(503)
    expect((ready.json as { error: string }).error).toMatch(UNREACHABLE)
    // A browser reloading the console gets a page saying so, which tries again by itself.
    const page = await httpRequest(running.server.baseUrl, 'GET', '/', undefined, { Cookie: running.admin.cookie!, Accept: 'text/html' })
    expect(page.status).toBe(503)
    expect(page.headers['content-type']).toBe('text/html')
    expect(page.text).toContain('The server cannot serve its data')
    expect(page.text).toMatch(new RegExp(UNREACHABLE.source.slice(1, -1)))
    expect(page.text).toContain('<meta http-equiv="refresh" content="10">')

    // The agents go on posting (one message a second each) and are answered 503 the whole time: real time,
    // longer than a host may stay silent.
    await sleep(DOWN_MS - (Date.now() - stoppedAt))
    const duringOutage = running.server.output().slice(loggedBefore)
    expect(duringOutage, 'no stack trace: a known failure').not.toMatch(/^\s+at /m)
    expect(duringOutage).not.toContain('internal server error')
    expect(duringOutage.match(/storage: writing the database failed/g)).toHaveLength(1)
    expect(duringOutage.split('\n').length, duringOutage).toBeLessThan(15)

    cluster('start')
    await waitFor('the agents stored again', () => running.lastDeadline() > before, 15_000)
    // The HTTP thread's own connection comes back at its next attempt (one a second at most).
    await expect.poll(async () => (await running.admin.get('/api/2/status/hosts/list')).status, { timeout: 15_000 }).toBe(200)
    expect((await httpRequest(running.server.baseUrl, 'GET', '/ready')).status).toBe(200)
    await waitFor('the log saying so', () => running.server.output().includes('storage: writing the database works again'), 15_000)
    // Proves absence: a few polls later (past skew × poll and a watchdog tick), still nobody declared dead for
    // the time the database was gone.
    await sleep(4_000)
    expect(running.count('SELECT COUNT(*) AS n FROM event WHERE class = $1', EventClassId.Heartbeat)).toBe(0)
    expect(running.count('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1')).toBe(2)
    expect(running.server.child.exitCode).toBeNull()
  }, 60_000)
})
