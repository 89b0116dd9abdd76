// reports/analytics/get over real HTTP, on history the real collector stored from real Monit payloads
// (the heartbeat fixture, re-timed and with its CPU figure changed), before and after the rollup ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Rollup } from '../../src/server/history/rollup'
import { loginAs, PREFIXES, type ApiClient, type ApiResponse } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { viewerOf } from '../support/viewers'

interface Series {
  serviceid: number
  service: string
  type: number
  typename: string
  descriptor: string
  unit: string
  points: [number, number, number, number][]
}
interface Report {
  hostid: number
  range: number
  datefrom: number
  dateto: number
  resolution: number
  level: string
  series: Series[]
}

const HOUR = 3600
const DAY = 86400
const CPU_USER = 1

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
let alpha: number
let bravo: number
const now = Math.floor(Date.now() / 1000)
/** Times well inside each range, aligned so two samples share a bucket at every level used. */
const recent = now - (now % HOUR) - HOUR
const daysAgo = now - (now % DAY) - 3 * DAY
const monthsAgo = now - (now % DAY) - 100 * DAY

/** The heartbeat fixture of agent `id`, collected at `time`, with the system's CPU user figure `cpu`. */
function heartbeat(id: string, hostname: string, time: number, cpu: number): Buffer {
  const xml = asAgent(fixture('02-status-heartbeat'), id.repeat(32), hostname)
    .toString('latin1')
    .replace(/<collected_sec>\d+<\/collected_sec>/g, `<collected_sec>${time}</collected_sec>`)
    .replace('<user>43.9</user>', `<user>${cpu}</user>`)
  return Buffer.from(xml, 'latin1')
}

async function post(id: string, hostname: string, time: number, cpu: number): Promise<void> {
  expect((await postCollector(server.baseUrl, heartbeat(id, hostname, time, cpu), { auth: 'monit:collect0r', gzip: false })).status).toBe(
    200
  )
}

async function report(
  client: ApiClient,
  params: Record<string, string | number>,
  prefix = '/api/2'
): Promise<ApiResponse & { report: Report }> {
  const res = await client.get(`${prefix}/reports/analytics/get`, params)
  return { ...res, report: res.json as Report }
}

const cpuOf = (r: Report) => r.series.find((s) => s.service === 'agent1-host' && s.type === CPU_USER)!

beforeAll(async () => {
  // The job stays idle: the tests roll up when they choose.
  server = await startTestServer({ historyRollup: { intervalMs: 3_600_000 } })
  // The newest first (it registers the host and applies), then older snapshots (history only).
  await post('a', 'alpha', recent + 30, 20.25)
  await post('a', 'alpha', recent, 10.5)
  await post('a', 'alpha', daysAgo + 10, 10)
  await post('a', 'alpha', daysAgo + 20, 30)
  await post('a', 'alpha', monthsAgo + 10, 1.5)
  await post('a', 'alpha', monthsAgo + 20, 2.5)
  await post('b', 'bravo', recent, 99)
  const { db, sql } = server.store
  const ids = Object.fromEntries(sql.all(db.selectFrom('host').select(['id', 'hostname'])).map((h) => [h.hostname, h.id]))
  alpha = ids.alpha
  bravo = ids.bravo
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  viewer = await viewerOf(server, 'viewer', { hosts: [bravo] })
})
afterAll(() => server.stopAndClean())

describe('reports/analytics/get', () => {
  it('answers the last hour from raw samples, each its own point, with the series described', async () => {
    for (const prefix of PREFIXES) {
      const res = await report(admin, { hostid: alpha, service: 'agent1-host', type: CPU_USER, range: 2 }, prefix)
      expect(res.status).toBe(200)
      expect(res.report).toMatchObject({ hostid: alpha, range: 2, level: 'raw', resolution: 30 })
      expect(res.report.dateto - res.report.datefrom).toBe(6 * HOUR)
      expect(res.report.series).toEqual([
        {
          serviceid: expect.any(Number),
          service: 'agent1-host',
          type: CPU_USER,
          typename: 'CpuUser',
          descriptor: '',
          unit: '%',
          points: [
            [recent, 10.5, 10.5, 10.5],
            [recent + 30, 20.25, 20.25, 20.25]
          ]
        }
      ])
    }
  })

  it('aggregates to at most about 1,000 points at the finest level whose retention covers the range', async () => {
    const week = (await report(admin, { hostid: alpha, type: CPU_USER, range: 5 })).report
    expect(week).toMatchObject({ level: 'minute', resolution: 900 })
    const weekPoints = cpuOf(week).points
    expect(weekPoints).toContainEqual([daysAgo, 20, 10, 30])
    expect(weekPoints).toContainEqual([recent, 15.375, 10.5, 20.25])
    expect(weekPoints.length).toBeLessThanOrEqual(1000)

    const year = (await report(admin, { hostid: alpha, type: CPU_USER, range: 9 })).report
    expect(year).toMatchObject({ level: 'hour', resolution: 43_200 })
    expect(cpuOf(year).points).toEqual([
      [monthsAgo, 2, 1.5, 2.5],
      [daysAgo, 20, 10, 30],
      [recent - (recent % 43_200), 15.375, 10.5, 20.25]
    ])

    const threeYears = (await report(admin, { hostid: alpha, type: CPU_USER, range: 11 })).report
    expect(threeYears).toMatchObject({ level: 'day', resolution: 172_800 })

    // Two hours 100 days ago: only the hour level still covers them.
    const custom = (await report(admin, { hostid: alpha, type: CPU_USER, range: 12, datefrom: monthsAgo, dateto: monthsAgo + 2 * HOUR }))
      .report
    expect(custom).toMatchObject({ level: 'hour', resolution: HOUR, datefrom: monthsAgo, dateto: monthsAgo + 2 * HOUR })
    expect(cpuOf(custom).points).toEqual([[monthsAgo, 2, 1.5, 2.5]])
  })

  it('gives the same answers once the rollup has rolled, pruned and moved the data to coarser levels', async () => {
    // The last week and the last year as fixed spans (custom ranges): a relative range ends at the
    // server's clock, which may pass a minute boundary while the rollup runs.
    const queries: Record<string, number>[] = [
      { hostid: alpha, type: CPU_USER, range: 12, datefrom: now - 7 * DAY, dateto: now },
      { hostid: alpha, type: CPU_USER, range: 12, datefrom: now - 365 * DAY, dateto: now },
      { hostid: alpha, type: CPU_USER, range: 12, datefrom: monthsAgo, dateto: monthsAgo + 2 * HOUR }
    ]
    const before = await Promise.all(queries.map(async (q) => (await report(admin, q)).report))
    new Rollup(server.store.history, server.store.sql).runToIdle(now)
    const rolled = server.store.history.settings.progress().rolledUntil
    expect(rolled.minute).toBeGreaterThan(now - 2 * HOUR)
    // The raw rows of 100 days ago are gone: the answers now come from minute, hour and day blocks.
    expect(server.store.history.raw.ofHost(alpha, 0, now - 2 * DAY)).toEqual([])
    const after = await Promise.all(queries.map(async (q) => (await report(admin, q)).report))
    expect(after).toEqual(before)
  }, 60_000) // the rollup crosses 100 days with no data: a few dozen steps, each a few round trips on PostgreSQL

  it('filters by service id, statistic type and descriptor, and leaves text statistics out', async () => {
    const all = (await report(admin, { hostid: alpha, range: 2 })).report.series
    expect(all.length).toBeGreaterThan(20)
    expect(all.map((s) => s.typename)).not.toContain('ProgramOutput')
    expect(all.map((s) => s.typename)).not.toContain('Checksum')
    const load = all.filter((s) => s.typename === 'LoadAverage')
    expect(load.map((s) => s.descriptor).sort()).toEqual(['avg01', 'avg05', 'avg15'])

    const one = (await report(admin, { hostid: alpha, serviceid: load[0].serviceid, type: 0, descriptor: 'avg05', range: 2 })).report.series
    expect(one.map((s) => [s.service, s.typename, s.descriptor])).toEqual([['agent1-host', 'LoadAverage', 'avg05']])
    expect(one[0].points.map((p) => p[1])).toEqual([0.5, 0.5])
    expect((await report(admin, { hostid: alpha, service: 'no such service', range: 2 })).report.series).toEqual([])
  })

  it('lets a viewer chart only the hosts it may view', async () => {
    const own = await report(viewer, { hostid: bravo, type: CPU_USER, range: 2 })
    expect(own.status).toBe(200)
    expect(own.report.series[0].points.map((p) => p[1])).toEqual([99])
    const other = await report(viewer, { hostid: alpha, range: 2 })
    expect(other.status).toBe(404)
    expect(other.json).toEqual({ error: `no host with id ${alpha}` })
  })

  it('refuses bad arguments with a clear 400, and unknown hosts with 404', async () => {
    const cases: [Record<string, string | number>, number, RegExp][] = [
      [{}, 400, /'hostid': is required/],
      [{ hostid: 'x' }, 400, /'hostid'/],
      [{ hostid: alpha, range: 13 }, 400, /'range'/],
      [{ hostid: alpha, type: '1.5' }, 400, /'type'/],
      [{ hostid: alpha, range: 12 }, 400, /'datefrom': is required/],
      [{ hostid: alpha, range: 12, datefrom: 100, dateto: 50 }, 400, /'dateto'/],
      [{ hostid: alpha, range: 12, datefrom: 'yesterday', dateto: 50 }, 400, /'datefrom'/],
      [{ hostid: 999_999 }, 404, /no host/]
    ]
    for (const [params, status, message] of cases) {
      const res = await admin.get('/api/2/reports/analytics/get', params)
      expect(res.status, JSON.stringify(params)).toBe(status)
      expect((res.json as { error: string }).error).toMatch(message)
    }
  })
})
