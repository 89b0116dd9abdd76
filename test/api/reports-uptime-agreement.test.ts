// reports/uptime/list measures every host from a few set-based reads (issue 28); its figures must be exactly
// what a straightforward computation gives, and what reports/uptime/get says of the same host. Seeded random
// histories (silences, failures of monitored and unmonitored services, open intervals, first reports within
// the range, events on the edges) are checked minute by minute over ranges whose edges fall on, inside and
// between intervals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UptimeItem, UptimeReport } from '../../src/shared/api/uptime'
import { loginAs, type ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

const MIN = 60
const HOUR = 3600
const DAY = 86400
// Minute-aligned and in the past, so every range is over and its figures do not depend on the clock.
const T0 = Math.floor(Date.now() / 1000 / MIN) * MIN - 10 * DAY
const HOSTS = 5

interface Interval {
  start: number
  end: number | null
}

interface HostHistory {
  id: number
  name: string
  createdAt: number
  silences: Interval[]
  /** Down intervals by service name id. */
  failures: Map<number, Interval[]>
  /** Name ids of the services it monitors. */
  monitored: number[]
  events: number[]
}

let server: TestServer
let admin: ApiClient
const hosts: HostHistory[] = []

/** A small seeded PRNG (mulberry32): every run builds the same histories. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}
const random = seeded(28)
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo))

/** One (host, name)'s intervals as the collector leaves them: in order, never overlapping, the last maybe open. */
function history(): Interval[] {
  const out: Interval[] = []
  let t = T0 - between(0, 6 * HOUR)
  for (let n = between(0, 5); n > 0; n--) {
    const start = t + between(1, 8 * HOUR)
    const end = start + between(1, 5 * HOUR)
    out.push({ start, end: n === 1 && random() < 0.3 ? null : end })
    t = end
  }
  return out
}

beforeAll(async () => {
  server = await startTestServer()
  const { db, sql } = server.store
  for (let h = 0; h < HOSTS; h++) {
    const name = `host-${h}`
    await server.collect(asAgent(fixture('02-status-heartbeat'), String(h).repeat(32), name))
    const row = sql.first(db.selectFrom('host').select('id').where('hostname', '=', name))!
    const services = sql.all(db.selectFrom('service').select(['id', 'name_id']).where('host_id', '=', row.id).orderBy('position'))
    // Some hosts first report within the ranges below, in the middle of a minute.
    const createdAt = h % 2 === 0 ? T0 - 2 * DAY : T0 + between(0, 10 * HOUR)
    sql.run(db.updateTable('host').set({ created_at: createdAt }).where('id', '=', row.id))
    // Host 2 no longer monitors a service that failed: its failures count nowhere.
    if (h === 2) sql.run(db.updateTable('service').set({ monitor: 0 }).where('id', '=', services[1].id))
    const host: HostHistory = {
      id: row.id,
      name,
      createdAt,
      silences: history(),
      failures: new Map(services.slice(0, 4).map((s) => [s.name_id, history()])),
      monitored: services.filter((_, i) => h !== 2 || i !== 1).map((s) => s.name_id),
      events: [T0 - 1, T0, T0 + DAY - 1, T0 + DAY, ...Array.from({ length: between(0, 6) }, () => T0 + between(0, DAY))]
    }
    for (const [nameId, list] of [[null, host.silences] as const, ...host.failures]) {
      for (const i of list) sql.run(db.insertInto('state_interval').values({ host_id: host.id, service_name_id: nameId, ...i }))
    }
    host.events.forEach((date, n) =>
      sql.run(
        db.insertInto('event').values({
          host_id: host.id,
          service_name_id: services[0].name_id,
          service_name: 'system',
          service_type: 5,
          class: 512,
          state: 1,
          action: 1,
          message: 'test',
          collected_usec: date * 1_000_000 + n,
          date
        })
      )
    )
    hosts.push(host)
  }
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(() => server.stopAndClean())

/** Whether an interval covers any of the minute starting at `m` (an open one runs on: every range is over). */
const touches = (i: Interval, m: number) => (i.end ?? Infinity) > i.start && i.start < m + MIN && (i.end ?? Infinity) > m

/** The host's figures counted minute by minute over [from, to): what the report must say. */
function expected(h: HostHistory, from: number, to: number) {
  let known = 0
  let silent = 0
  const down = new Map<number, number>()
  for (let m = from; m < to; m += MIN) {
    if (touches({ start: 0, end: h.createdAt }, m)) continue
    known += MIN
    if (h.silences.some((i) => touches(i, m))) silent += MIN
    for (const [nameId, list] of h.failures) {
      if (h.monitored.includes(nameId) && list.some((i) => touches(i, m))) down.set(nameId, (down.get(nameId) ?? 0) + MIN)
    }
  }
  const percent = (k: number, d: number) => (k === 0 ? 100 : Math.floor((10000 * (k - d)) / k) / 100)
  const servicesDown = [...down.values()].reduce((a, b) => a + b, 0)
  return {
    uptime: percent(known, silent),
    downtimeseconds: silent,
    unknownseconds: to - from - known,
    servicesup: percent(h.monitored.length * known, servicesDown),
    events: h.events.filter((d) => d >= from && d < to).length
  }
}

async function report(path: string, params: Record<string, number>): Promise<UptimeReport> {
  const res = await admin.get(`/api/2/reports/uptime/${path}`, params)
  expect(res.status, res.text).toBe(200)
  return res.json as UptimeReport
}

const figures = (i: UptimeItem) => ({
  uptime: i.uptime,
  downtimeseconds: i.downtimeseconds,
  unknownseconds: i.unknownseconds,
  servicesup: i.servicesup,
  events: i.events
})

/** Ranges whose edges fall on interval starts and ends, inside them, and on whole days. */
function ranges(): [string, number, number][] {
  const silence = hosts.flatMap((h) => h.silences.filter((i) => i.end !== null))
  const some = silence[0]!
  return [
    ['the day', T0, T0 + DAY],
    ['one minute', T0 + 3 * HOUR, T0 + 3 * HOUR + MIN],
    ["from a silence's start, off the minute", some.start, some.start + 5 * HOUR],
    ["from a silence's end", some.end!, some.end! + 2 * HOUR + 7 * MIN],
    ["ending at a silence's start", some.start - 3 * HOUR, some.start],
    ['before every first report', T0 - 90 * MIN, T0 + 37 * MIN],
    ['two days', T0 - DAY, T0 + DAY]
  ]
}

describe('the uptime list at fleet scale agrees with a minute-by-minute count', () => {
  it('has the expected figures for every host over every range, and get says the same per host', async () => {
    for (const [what, from, to] of ranges()) {
      const list = await report('list', { range: 12, datefrom: from, dateto: to })
      for (const h of hosts) {
        const item = list.items.find((i) => i.id === h.id)!
        const want = expected(h, from, to)
        expect(figures(item), `${h.name}, ${what}`).toEqual(want)
        const get = await report('get', { id: h.id, range: 12, datefrom: from, dateto: to })
        expect({ uptime: get.items[0].uptime, servicesup: get.servicesup }, `${h.name}'s get, ${what}`).toEqual({
          uptime: want.uptime,
          servicesup: want.servicesup
        })
      }
      const mean = hosts.reduce((sum, h) => sum + expected(h, from, to).servicesup, 0) / hosts.length
      expect(list.servicesup, what).toBe(Math.floor(Math.round(mean * 1e6) / 1e4) / 100)
    }
  })

  it('reads a host whose services were all down for the whole range as 0 % services up, whatever its agent did', async () => {
    const h = hosts[0]
    const { db, sql } = server.store
    const from = T0 + 5 * DAY
    for (const nameId of h.monitored) {
      sql.run(db.insertInto('state_interval').values({ host_id: h.id, service_name_id: nameId, start: from - HOUR, end: from + 2 * DAY }))
    }
    const item = (await report('list', { range: 12, datefrom: from, dateto: from + DAY })).items.find((i) => i.id === h.id)!
    expect({ uptime: item.uptime, servicesup: item.servicesup }).toEqual({ uptime: expected(h, from, from + DAY).uptime, servicesup: 0 })
  })
})
