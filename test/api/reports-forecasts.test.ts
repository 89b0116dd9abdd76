// reports/forecasts/{host,list} over real HTTP (issue 30 §3), on history the real collector stored from real
// Monit payloads: the heartbeat fixture collected every two hours over four days, its root filesystem filling
// 10 % a day (full in 3 days), its inodes flat, its memory jumping about. The list reads what the forecast
// job stored; a viewer sees only the hosts it may view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ForecastList, HostForecasts } from '../../src/shared/api/forecasts'
import { forecastSlice } from '../../src/server/history/forecaster'
import { loginAs, PREFIXES, type ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { withResourceFigures } from '../support/payloads'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { viewerOf } from '../support/viewers'

const HOUR = 3600
const DAY = 86_400
const now = Math.floor(Date.now() / 1000)
/** Every two hours over four days, the newest first (it registers the host; older snapshots are history). */
const times = Array.from({ length: 49 }, (_, i) => now - 60 - i * 2 * HOUR)

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
let filling: number
let other: number

/** The heartbeat fixture of agent `id` collected at `time`, its rootfs `space` % full and memory `memory` %. */
const heartbeat = (id: string, hostname: string, time: number, space: number, memory: number) =>
  withResourceFigures(asAgent(fixture('02-status-heartbeat'), id.repeat(32), hostname), {
    collectedSec: time,
    spacePercent: space,
    memoryPercent: memory
  })

const forecastsOf = async (client: ApiClient, hostid: number, prefix = '/api/2') => {
  const res = await client.get(`${prefix}/reports/forecasts/host`, { hostid })
  return { status: res.status, body: res.json as HostForecasts }
}

beforeAll(async () => {
  server = await startTestServer()
  for (const [i, time] of times.entries()) {
    // 70 % now, 10 % a day less before; memory between 20 and 80 % with no trend.
    await server.collect(heartbeat('a', 'filling', time, 70 - (10 * (now - time)) / DAY, i % 3 === 0 ? 80 : i % 3 === 1 ? 20 : 50))
  }
  await server.collect(heartbeat('b', 'other', now - 60, 50, 10))
  const { db, sql } = server.store
  const ids = Object.fromEntries(sql.all(db.selectFrom('host').select(['id', 'hostname'])).map((h) => [h.hostname, h.id]))
  filling = ids.filling
  other = ids.other
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  viewer = await viewerOf(server, 'viewer', { hosts: [other] })
})
afterAll(() => server.stopAndClean())

describe('reports/forecasts/host', () => {
  it('forecasts the filling filesystem within 10 % of the truth; flat or noisy resources have no forecast', async () => {
    for (const prefix of PREFIXES) {
      const { status, body } = await forecastsOf(admin, filling, prefix)
      expect(status).toBe(200)
      const of = (service: string, resource: string) => body.records.find((r) => r.service === service && r.resource === resource)!
      const space = of('rootfs', 'space')
      expect(space).toMatchObject({ hostid: filling, host: 'filling', service: 'rootfs', fullat: expect.any(Number) })
      const hoursLeft = (space.fullat! - now) / HOUR
      expect(Math.abs(hoursLeft - 72) / 72, `${hoursLeft} h left`).toBeLessThan(0.1)
      expect(space.slope).toBeCloseTo(10, 0)
      expect(space.percent).toBeGreaterThan(68)
      expect(space.confidence).toBeGreaterThan(0.9)
      expect(of('rootfs', 'inodes').fullat).toBeNull()
      expect(of('agent1-host', 'memory').fullat).toBeNull()
      expect(of('agent1-host', 'swap').fullat).toBeNull()
    }
  })

  it('a host the caller may not view answers as an unknown one: 404', async () => {
    expect((await forecastsOf(viewer, filling)).status).toBe(404)
    expect((await forecastsOf(viewer, other)).status).toBe(200)
    expect((await forecastsOf(admin, 999_999)).status).toBe(404)
    const bad = await admin.get('/api/2/reports/forecasts/host', { hostid: 'x' })
    expect(bad.status).toBe(400)
  })
})

describe('reports/forecasts/list', () => {
  beforeAll(() => {
    // One whole pass of the job, as it runs in the background.
    for (let afterId = 0, done = false; !done;) ({ lastId: afterId, done } = forecastSlice(server.store, now, afterId, 3))
  })

  it('lists what reaches 100 % within the hours asked, soonest first, on the hosts the caller may view', async () => {
    const list = async (client: ApiClient, within?: number) => {
      const res = await client.get('/api/2/reports/forecasts/list', within === undefined ? {} : { within })
      expect(res.status).toBe(200)
      return res.json as ForecastList
    }
    const week = await list(admin)
    expect(week.totalRecords).toBe(1)
    expect(week.records.map((r) => [r.host, r.service, r.resource])).toEqual([['filling', 'rootfs', 'space']])
    expect((await list(admin, 48)).records).toEqual([])
    expect((await list(viewer)).records).toEqual([])
    expect((await admin.get('/api/2/reports/forecasts/list', { within: 0 })).status).toBe(400)
  })
})
