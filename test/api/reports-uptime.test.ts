// reports/uptime/{list,get} over real HTTP (spec: Uptime reports, Uptime item, Limits; compat 6.5), on
// hosts the real collector stored, with down intervals and events written straight into the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorBody, loginAs, PREFIXES, type ApiClient, type ApiResponse, type Params } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { viewerOf } from '../support/viewers'
import { startTestServer, type TestServer } from '../support/in-process-server'

import type { UptimeReport as Report } from '../../src/shared/api/uptime'

interface ServiceRow {
  id: number
  name: string
  name_id: number
}

const MIN = 60
const HOUR = 3600
const DAY = 86400

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
const id: Record<string, number> = {}
let alphaServices: ServiceRow[]
// Minute-aligned, in the past: custom ranges over it give exact figures whatever the clock says.
const T0 = Math.floor(Date.now() / 1000 / MIN) * MIN - 10 * DAY
const minuteNow = () => Math.floor(Date.now() / 1000 / MIN) * MIN
const day0 = { range: 12, datefrom: T0, dateto: T0 + DAY }

const collect = (agentId: string, hostname: string) => server.collect(asAgent(fixture('02-status-heartbeat'), agentId.repeat(32), hostname))

function interval(hostId: number, nameId: number | null, start: number, end: number | null): void {
  const { db, sql } = server.store
  sql.run(db.insertInto('state_interval').values({ host_id: hostId, service_name_id: nameId, start, end }))
}

function event(hostId: number, service: string, date: number): void {
  const { db, sql } = server.store
  sql.run(
    db.insertInto('event').values({
      host_id: hostId,
      service_name_id: server.store.services.nameId(service),
      service_name: service,
      service_type: 5,
      class: 512,
      state: 1,
      action: 1,
      message: 'test',
      collected_usec: date * 1_000_000 + Math.floor(Math.random() * 1e6),
      date
    })
  )
}

beforeAll(async () => {
  server = await startTestServer()
  await collect('a', 'alpha')
  await collect('b', 'bravo')
  await collect('c', 'charlie')
  const { db, sql } = server.store
  for (const h of sql.all(db.selectFrom('host').select(['id', 'hostname']))) id[h.hostname] = h.id
  // Reporting since long before the ranges below: the time before a first report is unknown (issue 12).
  sql.run(db.updateTable('host').set({ created_at: T0 - 2 * DAY }))
  alphaServices = sql.all(db.selectFrom('service').select(['id', 'name', 'name_id']).where('host_id', '=', id.alpha).orderBy('position'))

  // alpha: silent 1 h on day 0 and 2 h two days ago; its second service failing 3 h on day 0 (twice,
  // overlapping), its third failing since 2 h ago and still down.
  interval(id.alpha, null, T0 + HOUR, T0 + 2 * HOUR)
  interval(id.alpha, null, minuteNow() - 2 * DAY, minuteNow() - 2 * DAY + 2 * HOUR)
  interval(id.alpha, alphaServices[1].name_id, T0 + 6 * HOUR, T0 + 8 * HOUR)
  interval(id.alpha, alphaServices[1].name_id, T0 + 7 * HOUR, T0 + 9 * HOUR)
  interval(id.alpha, alphaServices[2].name_id, minuteNow() - 2 * HOUR, null)
  // bravo: silent for all of day 0 and beyond. Another host's intervals must not leak into alpha's.
  interval(id.bravo, null, T0 - DAY, T0 + 2 * DAY)
  interval(id.bravo, alphaServices[1].name_id, T0, T0 + DAY)

  for (const h of [0, 1, 2]) event(id.alpha, alphaServices[1].name, T0 + h * HOUR)
  event(id.alpha, 'Monit', T0 + 5 * HOUR)
  event(id.alpha, alphaServices[1].name, T0 + DAY) // the first second after day 0
  event(id.alpha, alphaServices[1].name, T0 - 1)

  server.store.hosts.update(id.charlie, { status: 1 })
  sql.run(db.updateTable('service').set({ monitor: 0 }).where('id', '=', alphaServices[3].id))

  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  viewer = await viewerOf(server, 'viewer', { hosts: [id.bravo] })
})
afterAll(() => server.stopAndClean())

async function fetchReport(
  client: ApiClient,
  path: string,
  params: Params,
  prefix = '/api/1',
  method: 'get' | 'post' = 'get'
): Promise<Report> {
  const res = await client[method](`${prefix}/reports/uptime/${path}`, params)
  expect(res.status, res.text).toBe(200)
  return res.json as Report
}

const byName = (r: Report, name: string) => r.items.find((i) => i.name === name)!

/** A host item with nothing unknown, its downtime in words and in seconds. */
function measured(host: string, uptime: number, downtime: number, events: number) {
  const words: Record<number, string> = { 0: '0m', [HOUR]: '1h', [DAY]: '1d' }
  return {
    id: id[host],
    active: 1,
    name: host,
    uptime,
    downtime: words[downtime],
    downtimeseconds: downtime,
    events,
    unknown: '0m',
    unknownseconds: 0
  }
}

function expectError(res: ApiResponse, status: number, error: string): void {
  expect(res.status).toBe(status)
  expect(res.json).toEqual(errorBody(error))
}

describe('reports/uptime/list', () => {
  it.each(PREFIXES)('answers hosts under "%s", by GET and POST', async (prefix) => {
    for (const method of ['get', 'post'] as const) {
      const r = await fetchReport(admin, 'list', day0, prefix, method)
      expect(r).toEqual({
        range: 12,
        datefrom: T0,
        dateto: T0 + DAY,
        uptime: 65.27,
        downtime: '8h 20m',
        // Agent reporting (uptime) and services up, apart: bravo's agent was silent all day, one of its 11
        // services failing; alpha's 10 monitored services (one is not) were 3 h of 240 down.
        items: [
          { ...measured('alpha', 95.83, HOUR, 4), servicesup: 98.75 },
          { ...measured('bravo', 0, DAY, 0), servicesup: 90.9 },
          { ...measured('charlie', 100, 0, 0), active: 0, servicesup: 100 }
        ],
        servicesup: 96.55,
        serverdowntime: '0m',
        serverdown: []
      })
    }
  })

  it('defaults to today: local midnight to now', async () => {
    const r = await fetchReport(admin, 'list', {})
    expect(r.range).toBe(0)
    const midnight = new Date(r.dateto * 1000)
    midnight.setHours(0, 0, 0, 0)
    expect(r.datefrom).toBe(midnight.getTime() / 1000)
    expect(Math.abs(r.dateto - minuteNow())).toBeLessThanOrEqual(MIN)
    expect(r.items.map((i) => i.name)).toEqual(['alpha', 'bravo', 'charlie'])
  })

  it('covers the last 7 days for range 5', async () => {
    const r = await fetchReport(admin, 'list', { range: 5 })
    expect(r.dateto - r.datefrom).toBe(7 * DAY)
    // 2 h of 168: floor(10000 × 166 / 168) / 100.
    expect(byName(r, 'alpha')).toMatchObject({ uptime: 98.8, downtime: '2h' })
    expect(byName(r, 'bravo')).toMatchObject({ uptime: 100, downtime: '0m' })
  })

  it('shows only the hosts the caller may view', async () => {
    const r = await fetchReport(viewer, 'list', day0)
    expect(r.items.map((i) => i.name)).toEqual(['bravo'])
    expect(r).toMatchObject({ uptime: 0, downtime: '1d', servicesup: 90.9 })
  })
})

describe('reports/uptime/get', () => {
  it.each(PREFIXES)('answers the Monit item and the services under "%s"', async (prefix) => {
    const r = await fetchReport(admin, 'get', { id: id.alpha, ...day0 }, prefix)
    expect(r).toMatchObject({ range: 12, datefrom: T0, dateto: T0 + DAY })
    expect(r.items.map((i) => i.name)).toEqual(['Monit', ...alphaServices.map((s) => s.name)])
    expect(r.items[0]).toEqual({ ...measured('alpha', 95.83, HOUR, 1), id: 0, name: 'Monit' })
    // No servicesup per item in get: the report's is the host's, as on the list.
    expect(r.servicesup).toBe(98.75)
    expect(r.items.every((i) => !('servicesup' in i))).toBe(true)
    // 6:00–9:00 from two overlapping failures: 3 h of 24.
    expect(r.items[2]).toEqual({
      id: alphaServices[1].id,
      active: 1,
      name: alphaServices[1].name,
      uptime: 87.5,
      downtime: '3h',
      downtimeseconds: 3 * HOUR,
      events: 3,
      unknown: '0m',
      unknownseconds: 0
    })
    expect(r.items[3]).toMatchObject({ id: alphaServices[2].id, uptime: 100, downtime: '0m', events: 0 })
    expect(r.items[4]).toMatchObject({ id: alphaServices[3].id, active: 0 })
    const others = r.items.filter((i) => i.name !== 'Monit' && i.name !== alphaServices[1].name)
    expect(others.every((i) => i.uptime === 100 && i.downtime === '0m' && i.events === 0)).toBe(true)
  })

  it('counts an open failure up to now', async () => {
    const r = await fetchReport(admin, 'get', { id: id.alpha, range: 1 })
    expect(r.dateto - r.datefrom).toBe(HOUR)
    expect(byName(r, alphaServices[2].name)).toMatchObject({ uptime: 0, downtime: '1h' })
    const day = await fetchReport(admin, 'get', { id: id.alpha, range: 4 })
    expect(['2h', '2h 1m']).toContain(byName(day, alphaServices[2].name).downtime)
  })

  it('accepts hostid in place of id', async () => {
    const r = await fetchReport(admin, 'get', { hostid: id.bravo, ...day0 })
    expect(r.items[0]).toMatchObject({ name: 'Monit', uptime: 0, downtime: '1d' })
    // bravo's own service of that name was down; alpha's intervals stay alpha's.
    expect(byName(r, alphaServices[1].name)).toMatchObject({ downtime: '1d' })
  })

  it('answers 404 for unknown hosts and hosts the caller may not view', async () => {
    expectError(await admin.get('/api/1/reports/uptime/get', { id: 99999 }), 404, 'no host with id 99999')
    expectError(await viewer.get('/api/1/reports/uptime/get', { id: id.alpha }), 404, `no host with id ${id.alpha}`)
    expect((await fetchReport(viewer, 'get', { id: id.bravo })).items[0].name).toBe('Monit')
  })

  it('needs an id', async () => {
    expectError(await admin.get('/api/1/reports/uptime/get', {}), 400, "invalid argument 'id': is required")
  })
})

describe('range arguments', () => {
  it.each<[Params, string]>([
    [{ range: 13 }, "invalid argument 'range': expected a range id 0 to 12"],
    [{ range: 'week' }, "invalid argument 'range': expected a range id"],
    [{ range: 12 }, "invalid argument 'datefrom': is required"],
    [{ range: 12, datefrom: T0 }, "invalid argument 'dateto': is required"],
    [{ range: 12, datefrom: 'yesterday', dateto: T0 }, "invalid argument 'datefrom': expected a unix timestamp"],
    [{ range: 12, datefrom: T0, dateto: T0 }, "invalid argument 'dateto': must be later than datefrom"],
    [{ range: 12, datefrom: T0, dateto: T0 + 90 }, "invalid argument 'dateto': dateto - datefrom must be a whole number of minutes"]
  ])('%o is a 400', async (params, error) => {
    for (const path of ['list', 'get']) {
      expectError(await admin.get(`/api/1/reports/uptime/${path}`, { id: id.alpha, ...params }), 400, error)
    }
  })

  it('ignores datefrom and dateto unless the range is custom', async () => {
    const r = await fetchReport(admin, 'list', { range: 5, datefrom: 'x', dateto: 1 })
    expect(r.range).toBe(5)
  })

  it('measures a custom range reaching past now up to now', async () => {
    const from = minuteNow() - HOUR
    const r = await fetchReport(admin, 'get', { id: id.alpha, range: 12, datefrom: from, dateto: from + DAY })
    expect(r.dateto).toBe(from + DAY)
    // Open since 2 h ago: all the elapsed hour (a minute more if the clock turned one meanwhile).
    expect(byName(r, alphaServices[2].name).uptime).toBe(0)
    expect(['1h', '1h 1m']).toContain(byName(r, alphaServices[2].name).downtime)
  })
})
