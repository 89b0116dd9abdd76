// reports/uptime/{list,get} over real HTTP with time nobody could observe (issue 12): the server's own
// downtime (gaps between its recorded runs, after a clean stop and after a kill) and the time before a
// host first reported count neither as up nor as down, and the report says so in additive fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UptimeReport } from '../../src/shared/api/uptime'
import { loginAs, type ApiClient } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

const MIN = 60
const HOUR = 3600
const DAY = 86400
// Minute-aligned, in the past: a custom range over it gives exact figures whatever the clock says.
const T0 = Math.floor(Date.now() / 1000 / MIN) * MIN - 10 * DAY
const day0 = { range: 12, datefrom: T0, dateto: T0 + DAY }

let server: TestServer
let admin: ApiClient
const id: Record<string, number> = {}

function run(startedAt: number, aliveAt: number, stoppedAt: number | null): void {
  server.store.sql.plain
    .prepare('INSERT INTO server_run (started_at, alive_at, stopped_at) VALUES (?, ?, ?)')
    .run(startedAt, aliveAt, stoppedAt)
}

beforeAll(async () => {
  server = await startTestServer()
  for (const name of ['alpha', 'bravo', 'charlie']) {
    const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), name[0].repeat(32), name), {
      auth: 'monit:collect0r'
    })
    expect(res.status).toBe(200)
  }
  const { db, sql } = server.store
  for (const h of sql.all(db.selectFrom('host').select(['id', 'hostname']))) id[h.hostname] = h.id
  // The server ran until a clean stop at 10:00, again from 10:30 until killed after its last alive stamp at
  // 12:00, and from 12:45 on (its last stamp after day 0; the run of this test process comes later still).
  run(T0 - 3 * DAY, T0 + 10 * HOUR, T0 + 10 * HOUR)
  run(T0 + 10 * HOUR + 30 * MIN, T0 + 12 * HOUR, null)
  run(T0 + 12 * HOUR + 45 * MIN, T0 + 2 * DAY, T0 + 2 * DAY)
  // alpha: reporting for days; silent 9:00–11:00, half an hour of which the server itself was down.
  sql.run(
    db
      .updateTable('host')
      .set({ created_at: T0 - 5 * DAY })
      .where('id', '=', id.alpha)
  )
  sql.run(db.insertInto('state_interval').values({ host_id: id.alpha, service_name_id: null, start: T0 + 9 * HOUR, end: T0 + 11 * HOUR }))
  // bravo: first report at 20:00, healthy since. charlie: first report at 20:00, silent from 20:05 on.
  sql.run(
    db
      .updateTable('host')
      .set({ created_at: T0 + 20 * HOUR })
      .where('id', 'in', [id.bravo, id.charlie])
  )
  sql.run(
    db.insertInto('state_interval').values({ host_id: id.charlie, service_name_id: null, start: T0 + 20 * HOUR + 5 * MIN, end: null })
  )
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(() => server.stopAndClean())

async function fetchReport(path: string, params: Record<string, number>): Promise<UptimeReport> {
  const res = await admin.get(`/api/1/reports/uptime/${path}`, params)
  expect(res.status, res.text).toBe(200)
  return res.json as UptimeReport
}

describe('uptime with unknown time', () => {
  it("lists the server's downtime and leaves it out of every host's uptime", async () => {
    const r = await fetchReport('list', day0)
    expect(r.serverdown).toEqual([
      { from: T0 + 10 * HOUR, to: T0 + 10 * HOUR + 30 * MIN },
      { from: T0 + 12 * HOUR, to: T0 + 12 * HOUR + 45 * MIN }
    ])
    expect(r.serverdowntime).toBe('1h 15m')
    expect(r.items).toEqual([
      // 2 h silent, 30 min of it while the server was down: 90 min down of 1,365 known.
      {
        id: id.alpha,
        active: 1,
        name: 'alpha',
        uptime: 93.4,
        downtime: '1h 30m',
        events: 0,
        unknown: '1h 15m',
        downtimeseconds: 90 * MIN,
        unknownseconds: 75 * MIN,
        servicesup: 100
      },
      // Not counted before its first report: 100 % of the 4 hours since, not of the day.
      {
        id: id.bravo,
        active: 1,
        name: 'bravo',
        uptime: 100,
        downtime: '0m',
        events: 0,
        unknown: '20h',
        downtimeseconds: 0,
        unknownseconds: 20 * HOUR,
        servicesup: 100
      },
      // Silent 5 min after its first report: 235 of its 240 known minutes down (was 83.68 % of the whole day).
      {
        id: id.charlie,
        active: 1,
        name: 'charlie',
        uptime: 2.08,
        downtime: '3h 55m',
        events: 0,
        unknown: '20h',
        downtimeseconds: 235 * MIN,
        unknownseconds: 20 * HOUR,
        servicesup: 100
      }
    ])
  })

  it('applies the same unknown time to the Monit item and the services of a host', async () => {
    const r = await fetchReport('get', { id: id.alpha, ...day0 })
    expect(r.serverdowntime).toBe('1h 15m')
    expect(r.items[0]).toMatchObject({ name: 'Monit', uptime: 93.4, downtime: '1h 30m', unknown: '1h 15m' })
    expect(r.items.slice(1).map((i) => [i.uptime, i.downtime, i.unknown])).toEqual(r.items.slice(1).map(() => [100, '0m', '1h 15m']))
    const late = await fetchReport('get', { id: id.bravo, ...day0 })
    expect(late.items.map((i) => i.unknown)).toEqual(late.items.map(() => '20h'))
  })

  it("cuts the server's downtime to the range", async () => {
    const r = await fetchReport('list', { range: 12, datefrom: T0 + 10 * HOUR + 15 * MIN, dateto: T0 + 12 * HOUR + 15 * MIN })
    expect(r.serverdown).toEqual([
      { from: T0 + 10 * HOUR + 15 * MIN, to: T0 + 10 * HOUR + 30 * MIN },
      { from: T0 + 12 * HOUR, to: T0 + 12 * HOUR + 15 * MIN }
    ])
    expect(r.serverdowntime).toBe('30m')
  })

  it('has no server downtime over a range the server ran through', async () => {
    const r = await fetchReport('list', { range: 12, datefrom: T0 + 13 * HOUR, dateto: T0 + 14 * HOUR })
    expect(r).toMatchObject({ serverdowntime: '0m', serverdown: [] })
    expect(r.items.find((i) => i.name === 'alpha')).toMatchObject({ uptime: 100, unknown: '0m' })
  })
})
