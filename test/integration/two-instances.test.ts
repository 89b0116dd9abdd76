// Two built servers on one PostgreSQL database (issue 17, "Several instances"): agents post to A and B
// alternately; a login on A reads everything on B and is ended from B; a console on B sees what A
// collected; A, the holder of the job lease, is killed with SIGKILL and B takes the watchdog and the alert
// delivery over: every silent host gets exactly one heartbeat event and no alert is sent twice.
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Store } from '../../src/server/store/store'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'
import { EventClassId } from '../../src/shared/codes'
import type { HostList } from '../../src/shared/api/status'
import { addChannel, addRule } from '../support/alert-config'
import { startAlertReceiver, type AlertReceiver } from '../support/alert-receiver'
import { httpRequest, loginAs } from '../support/api-client'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { captureShiftTo, retimeCapture } from '../support/payloads'
import { databaseFor, testEngine } from '../support/test-database'
import { openSse, type SseFrame } from '../server/live/sse-client'
import { waitFor } from '../support/wait'

const ARGS = ['--init-collector', 'agents:s3cret', '--init-admin', 'admin:adminsecret']
const AGENTS = [1, 2, 3, 4]
const shift = captureShiftTo(Math.floor(Date.now() / 1000))
const agentId = (i: number) => `f0${String(i).padStart(30, '0')}`
// Agents 3 and 4 fall silent in the last test: a 1 s poll, declared silent 3 s (skew × poll) after their
// last message. Agents 1 and 2 keep reporting every half second: a 10 s poll, so that a post held up on a
// loaded machine does not make them silent too.
const payload = (name: string, i: number) =>
  retimeCapture(asAgent(fixture(name), agentId(i), `web-${i}`), shift).replace(/<poll>\d+<\/poll>/, `<poll>${i <= 2 ? 10 : 1}</poll>`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let a: BuiltServer
let b: BuiltServer
let database: string
let db: SyncConnection
let hook: AlertReceiver
/** Agents 3 and 4 report until the last test silences them: a test slowed down by a loaded machine must
 *  not let A declare them dead (and alert) before it is killed. */
let silencedLater: Reporting | undefined

async function post(server: BuiltServer, name: string, agent: number): Promise<void> {
  const res = await postCollector(server.baseUrl, payload(name, agent), { auth: 'agents:s3cret' })
  expect(res.status).toBe(200)
}

function heartbeatEventsByHost(): Record<string, number> {
  const { rows } = db.query(
    `SELECT h.hostname, COUNT(*) AS n FROM event e JOIN host h ON h.id = e.host_id WHERE e.class = $1 AND e.state = 1 GROUP BY h.hostname ORDER BY h.hostname`,
    [EventClassId.Heartbeat]
  )
  return Object.fromEntries(rows.map((r) => [r.hostname as string, r.n as number]))
}

describe.skipIf(testEngine !== 'postgres')('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    hook = await startAlertReceiver()
    a = await startBuiltServer({ args: ARGS })
    database = databaseFor(a.dataDir)!
    // Another machine: its own data folder, the same database and the same secret key.
    const bDir = mkdtempSync(join(tmpdir(), 'overseer-test-'))
    copyFileSync(join(a.dataDir, 'secret.key'), join(bDir, 'secret.key'))
    b = await startBuiltServer({ dataDir: bDir, args: [...ARGS, '--database', database] })
    db = new SyncConnection(database)
  })
  afterAll(async () => {
    await silencedLater?.stop()
    db?.close()
    await a?.stop()
    await b?.stop()
    for (const s of [b, a]) if (s) removeDir(s.dataDir)
    await hook?.close()
  })

  it('gives the job lease to the first instance only', () => {
    expect(a.output()).toMatch(/job lease taken/)
    expect(b.output()).not.toMatch(/job lease taken/)
  })

  it('collects on both: a client logged in on A reads on B every host posted to either, and B ends the session on A', async () => {
    for (const [n, agent] of AGENTS.entries()) await post(n % 2 === 0 ? a : b, '02-status-heartbeat', agent)
    for (const [n, agent] of AGENTS.entries()) await post(n % 2 === 0 ? b : a, '02-status-heartbeat', agent)
    silencedLater = reporting([3, 4], a)
    const onA = await loginAs(a.baseUrl, 'admin', 'adminsecret')
    const cookie = { Cookie: onA.cookie! }
    const sameSession = await httpRequest(b.baseUrl, 'GET', '/api/2/status/hosts/list', undefined, cookie)
    expect(sameSession.status).toBe(200)
    expect((sameSession.json as HostList).records.map((h) => h.hostname).sort()).toEqual(AGENTS.map((i) => `web-${i}`))
    // Invalidated through B, the login no longer opens A.
    expect((await httpRequest(b.baseUrl, 'GET', '/api/2/session/invalidate', undefined, cookie)).status).toBe(200)
    const after = await httpRequest(a.baseUrl, 'GET', '/api/2/status/hosts/list', undefined, cookie)
    expect(after.text).toMatch(/^<!doctype html>/i) // the login page, not the hosts
  })

  it('shows a console on B what A collected', async () => {
    const admin = await loginAs(a.baseUrl, 'admin', 'adminsecret')
    // Configured in the database: at this base, rules/create fails on PostgreSQL (an empty IN () list).
    const store = new Store(database)
    try {
      addRule(store.sql.plain, { channelIds: [addChannel(store.sql.plain, { settings: { url: hook.url } })], groupWaitSec: 0 })
    } finally {
      store.close()
    }
    const stream = await openSse(b.baseUrl, '/api/2/live', { Cookie: admin.cookie! })
    await stream.waitFor((f) => f.event === 'ready')
    await post(a, '03-event-process-not-running', 1)
    const isEvent = (f: SseFrame) => f.event === 'event' && (JSON.parse(f.data) as { hostname: string }).hostname === 'web-1'
    await stream.waitFor(isEvent, 10_000)
    stream.close()
    await waitFor('the failure alert', () => hook.received.length === 1, 10_000, 20)
    // Recorded as delivered before A dies below: a send cut by a crash is sent again (at-least-once, same id).
    await waitFor(
      'its delivery recorded',
      () => db.query(`SELECT 1 FROM alert_notification WHERE status = 'delivered'`).rows.length === 1,
      5_000,
      20
    )
  })

  it('has logged no warning from its PostgreSQL clients (statements queued on a client must be pipelined)', () => {
    for (const server of [a, b]) expect(server.output()).not.toContain('DeprecationWarning')
  })

  it('lets B run the watchdog once A, holding the lease, is killed: one heartbeat event per silent host, no alert twice', async () => {
    // Agents 1 and 2 keep reporting (to B, A being gone); 3 and 4 fall silent with A.
    await whileReporting([1, 2], b, async () => {
      await silencedLater?.stop()
      await a.kill()
      await waitFor('B taking the lease', () => b.output().includes('job lease taken'), 10_000, 20)
      // Dead three poll cycles (3 s) after their last reports, once B's watchdog passes: bounded generously for a loaded machine.
      await waitFor('both silent hosts declared dead', () => Object.keys(heartbeatEventsByHost()).length === 2, 30_000)
      await waitFor('their alerts', () => alerted().length === 3, 10_000, 20)
      await sleep(3_000) // proves absence: more passes of B's watchdog and delivery (1 s), and nothing more happens
    })
    expect(heartbeatEventsByHost()).toEqual({ 'web-3': 1, 'web-4': 1 })
    const ids = hook.received.map((r) => r.body.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(alerted()).toEqual(['web-1 sleeper', 'web-3 heartbeat', 'web-4 heartbeat'])
  })
})

/** Every alert the receiver got, as "host service" ("heartbeat" for a host's own). */
function alerted(): string[] {
  return hook.received
    .flatMap((r) => r.body.alerts.map((alert) => `${alert.host} ${alert.serviceid === null ? 'heartbeat' : alert.service}`))
    .sort()
}

interface Reporting {
  stop(): Promise<void>
}

/** `agents` post a heartbeat to `server` every half second until stopped. */
function reporting(agents: number[], server: BuiltServer): Reporting {
  let going = true
  const loop = (async () => {
    while (going) {
      for (const agent of agents) await post(server, '02-status-heartbeat', agent)
      await sleep(500)
    }
  })()
  return {
    stop: async () => {
      going = false
      await loop
    }
  }
}

/** Runs `fn` while `agents` post a heartbeat to `server` every half second. */
async function whileReporting(agents: number[], server: BuiltServer, fn: () => Promise<void>): Promise<void> {
  const background = reporting(agents, server)
  try {
    await fn()
  } finally {
    await background.stop()
  }
}
