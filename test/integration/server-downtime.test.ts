// The server's own downtime is not the agents' downtime (issue 12), with the built server and two real
// Monit 5.33 agents (1 s poll, so skew × poll = 3 s): the server is stopped cleanly, then killed with
// SIGKILL, each time for longer than skew × poll, and restarted on the same data directory and port.
// Live agents must raise no "No report from Monit" event, keep 100 % uptime, and the report must list
// both gaps as the server's downtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALIVE_STAMP_MS } from '../../src/server/domain/server-runs'
import type { UptimeReport } from '../../src/shared/api/uptime'
import { EventClassId } from '../../src/shared/codes'
import { loginAs } from '../support/api-client'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { startAgents, type AgentFleet } from '../support/monit-agents'
import type { PlainSql } from '../../src/server/store/sql'
import { plainDatabaseOf } from '../support/test-database'
import { waitFor } from '../support/wait'

const DOWN_MS = 5_000 // real time, > skew 3 × poll 1 s
const SETTLE_MS = 4_000 // proves absence: > the fresh deadline of 3 s after a start, plus the watchdog's tick
const ARGS = ['--init-collector', 'agents:s3cret', '--init-admin', 'admin:adminsecret']

let server: BuiltServer
let fleet: AgentFleet
let dataDir: string
/** Unix seconds around each event of the run, as the test saw them. */
const t = { stop: 0, restart1: [0, 0], kill: 0, restart2: [0, 0] }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const nowSec = () => Date.now() / 1000

function readDb<T>(read: (db: PlainSql) => T): T {
  const db = plainDatabaseOf(dataDir)
  try {
    return read(db)
  } finally {
    db.close()
  }
}

async function restart(): Promise<number[]> {
  const before = nowSec()
  server = await startBuiltServer({ dataDir, args: [...ARGS, '--port', String(server.port)] })
  return [before, nowSec()]
}

beforeAll(async () => {
  server = await startBuiltServer({ args: ARGS })
  dataDir = server.dataDir
  fleet = await startAgents({ collectorUrl: `http://agents:s3cret@127.0.0.1:${server.port}/collector`, count: 2 })
  await waitFor(
    'both agents reporting',
    () => readDb((db) => (db.prepare('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1').get() as { n: number }).n === 2),
    15_000
  )
  await sleep(1_500)

  await server.stop()
  t.stop = nowSec()
  // Hosts that have reported for an hour: the time before a first report is unknown, and the 100 %
  // below must be measured over known minutes, not over none.
  const db = plainDatabaseOf(dataDir)
  db.prepare('UPDATE host SET created_at = created_at - 3600').run()
  db.close()
  await sleep(DOWN_MS)
  t.restart1 = await restart()
  await sleep(SETTLE_MS)

  await server.kill()
  t.kill = nowSec()
  await sleep(DOWN_MS)
  t.restart2 = await restart()
  await sleep(SETTLE_MS)
}, 90_000)

afterAll(async () => {
  await fleet?.shutdown()
  await server?.stop()
  if (dataDir) removeDir(dataDir)
})

describe('the server stopped and killed while agents kept reporting', () => {
  it('declares no live host dead and opens no down interval', () => {
    const figures = readDb((db) => ({
      heartbeatEvents: (db.prepare('SELECT COUNT(*) AS n FROM event WHERE class = ?').get(EventClassId.Heartbeat) as { n: number }).n,
      silences: (db.prepare('SELECT COUNT(*) AS n FROM state_interval WHERE service_name_id IS NULL').get() as { n: number }).n,
      alive: (db.prepare('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1').get() as { n: number }).n
    }))
    expect(figures).toEqual({ heartbeatEvents: 0, silences: 0, alive: 2 })
  })

  it("reports 100 % uptime for the healthy hosts and both gaps as the server's downtime", async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    // A custom range ending exactly now: its minute grid starts at `from`, so every second so far counts.
    const to = Math.floor(nowSec())
    const res = await admin.get('/api/1/reports/uptime/list', { range: 12, datefrom: to - 600, dateto: to })
    expect(res.status, res.text).toBe(200)
    const report = res.json as UptimeReport
    expect(report.items.map((i) => [i.uptime, i.downtime, i.unknown === report.serverdowntime])).toEqual([
      [100, '0m', true],
      [100, '0m', true]
    ])
    expect(report.serverdowntime).not.toBe('0m')
    expect(report.serverdown).toHaveLength(2)
    const [clean, killed] = report.serverdown
    // A clean stop is recorded at the stop; a kill leaves the last alive stamp as the gap's start.
    expect(clean.from).toBeGreaterThanOrEqual(Math.floor(t.stop) - 2)
    expect(clean.from).toBeLessThanOrEqual(t.stop)
    expect(clean.to).toBeGreaterThanOrEqual(Math.floor(t.restart1[0]))
    expect(clean.to).toBeLessThanOrEqual(t.restart1[1])
    expect(killed.from).toBeGreaterThanOrEqual(Math.floor(t.restart1[0]) - 1)
    expect(killed.from).toBeGreaterThanOrEqual(Math.floor(t.kill - ALIVE_STAMP_MS / 1000) - 1)
    expect(killed.from).toBeLessThanOrEqual(t.kill)
    expect(killed.to).toBeGreaterThanOrEqual(Math.floor(t.restart2[0]))
    expect(killed.to).toBeLessThanOrEqual(t.restart2[1])
  })
})
