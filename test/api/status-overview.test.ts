// status/hosts/overview and status/services/list over real HTTP, on what the real collector stored
// from Monit's own payloads: failing services by name, since when, severity order, role scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostOverviewEntry, OverviewPage, ServiceOverviewEntry } from '../../src/shared/api/overview'
import { errorBody, loginAs, type ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { viewerOf } from '../support/viewers'

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
const id: Record<string, number> = {}

const collect = (name: string, agent: string, hostname: string) => server.collect(asAgent(fixture(name), agent.repeat(32), hostname))

async function hosts(client: ApiClient, params = {}): Promise<OverviewPage<HostOverviewEntry>> {
  const res = await client.get('/api/2/status/hosts/overview', params)
  expect(res.status, res.text).toBe(200)
  return res.json as OverviewPage<HostOverviewEntry>
}

async function services(client: ApiClient, params = {}): Promise<OverviewPage<ServiceOverviewEntry>> {
  const res = await client.get('/api/2/status/services/list', params)
  expect(res.status, res.text).toBe(200)
  return res.json as OverviewPage<ServiceOverviewEntry>
}

beforeAll(async () => {
  server = await startTestServer()
  await collect('02-status-heartbeat', 'a', 'alpha')
  await collect('03-event-process-not-running', 'a', 'alpha')
  await collect('02-status-heartbeat', 'b', 'bravo')
  await collect('03-event-process-not-running', 'd', 'delta')
  await collect('02-status-heartbeat', 's', 'silent')
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  for (const h of (await hosts(admin)).records) id[h.hostname] = h.id
  // The watchdog's verdict on a host that stopped reporting, written as it writes it.
  server.store.hosts.update(id.silent, { heartbeat: 0, led: 0, status_text: 'No report from Monit' })
  viewer = await viewerOf(server, 'viewer', { hosts: [id.alpha] })
})
afterAll(() => server.stopAndClean())

async function openFailure(hostId: number, service: string): Promise<number> {
  const res = await admin.get('/api/2/reports/events/list', { hostid: hostId, active: 1 })
  const events = (res.json as { records: { servicename: string; date: number }[] }).records
  return events.find((e) => e.servicename === service)!.date
}

describe('status/hosts/overview', () => {
  it('orders silent hosts first, then red, orange, the longest failing first', async () => {
    const page = await hosts(admin)
    expect(page).toMatchObject({ totalRecords: 4, sort: 'attention', dir: 'asc' })
    expect(page.records.map((h) => h.hostname)).toEqual(['silent', 'delta', 'alpha', 'bravo'])
  })

  it('names the failing services, red first, with the date of their open failure', async () => {
    const byName = Object.fromEntries((await hosts(admin)).records.map((h) => [h.hostname, h]))
    const sleeperDown = await openFailure(id.delta, 'sleeper')
    expect(byName.delta.failing).toEqual([
      { name: 'sleeper', led: 0, since: sleeperDown },
      { name: 'deadport', led: 0, since: null }
    ])
    expect(byName.delta.since).toBe(sleeperDown)
    // alpha's sleeper failure came in an older snapshot: the service is fine now, so it is not "since".
    expect(byName.alpha.failing.map((s) => s.name)).toEqual(['deadport'])
    expect(byName.alpha.since).toBeNull()
  })

  it('says when each host last reported; a silent host needs attention since then', async () => {
    const records = (await hosts(admin)).records
    const stored = (hostId: number) => server.store.hosts.findById(hostId)!.last_modified
    for (const h of records) expect(h.lastreport).toBe(stored(h.id))
    const silent = records.find((h) => h.hostname === 'silent')!
    expect(silent).toMatchObject({ heartbeat: 0, since: silent.lastreport })
  })

  it("draws each host's last 24 hours from its state intervals, an hour per cell", async () => {
    // bravo fell silent for an hour, two and a half hours ago, and earlier for a while two days ago.
    const now = Math.floor(Date.now() / 1000)
    const { db, sql } = server.store
    server.store.hosts.update(id.bravo, { created_at: now - 3 * 86_400 })
    sql.run(
      db.insertInto('state_interval').values([
        { host_id: id.bravo, service_name_id: null, start: now - 9000, end: now - 5400 },
        { host_id: id.bravo, service_name_id: null, start: now - 2 * 86_400, end: now - 2 * 86_400 + 600 }
      ])
    )
    const byName = Object.fromEntries((await hosts(admin)).records.map((h) => [h.hostname, h.trend.join('')]))
    expect(byName.bravo).toBe(`${'0'.repeat(21)}220`)
    // silent first reported moments ago: the hours before are not known, not up.
    expect(byName.silent).toBe(`${'3'.repeat(23)}0`)
    // delta's sleeper has been down since the capture, days ago, and still is.
    expect(byName.delta).toBe('1'.repeat(24))
  })

  it('takes the filters, order and paging of status/hosts/list', async () => {
    expect((await hosts(admin, { hostpattern: 'LPH' })).records.map((h) => h.hostname)).toEqual(['alpha'])
    expect((await hosts(admin, { led: 2 })).totalRecords).toBe(0)
    expect((await hosts(admin, { sort: 'hostname', dir: 'desc', results: 2, startindex: 1 })).records.map((h) => h.hostname)).toEqual([
      'delta',
      'bravo'
    ])
    expect((await hosts(admin, { sort: 'attention', dir: 'desc' })).records[3].hostname).toBe('silent')
  })

  it('shows a viewer only the hosts it may view', async () => {
    expect((await hosts(viewer)).records.map((h) => h.hostname)).toEqual(['alpha'])
  })
})

describe('status/services/list', () => {
  it('finds a service by name on every host, failing ones first, the longest failing first', async () => {
    const page = await services(admin, { servicepattern: 'SLEEP' })
    expect(page.totalRecords).toBe(4)
    expect(page.records.map((s) => [s.hostname, s.led])).toEqual([
      ['delta', 0],
      ['alpha', 2],
      ['bravo', 2],
      ['silent', 2]
    ])
    expect(page.records[0]).toMatchObject({
      name: 'sleeper',
      type: 'Process',
      status: 'Does not exist',
      since: await openFailure(id.delta, 'sleeper')
    })
    expect(page.records.find((s) => s.hostname === 'silent')).toMatchObject({ heartbeat: 0 })
  })

  it("filters by service LED and by the hosts list's filters", async () => {
    const red = await services(admin, { serviceled: 0 })
    expect(new Set(red.records.map((s) => s.name))).toEqual(new Set(['sleeper', 'deadport']))
    expect(red.records.every((s) => s.led === 0)).toBe(true)
    const onDelta = await services(admin, { hostpattern: 'delta', serviceled: 0, sort: 'name' })
    expect(onDelta.records.map((s) => s.name)).toEqual(['deadport', 'sleeper'])
  })

  it('shows a viewer only the services of the hosts it may view', async () => {
    expect((await services(viewer, { servicepattern: 'sleeper' })).records.map((s) => s.hostname)).toEqual(['alpha'])
  })

  it('answers a bad argument with a 400 naming it', async () => {
    const res = await admin.get('/api/2/status/services/list', { serviceled: 7 })
    expect(res.status).toBe(400)
    expect(res.json).toEqual(errorBody("invalid argument 'serviceled': expected a LED code 0 to 3"))
  })
})

describe('mutes on the status reads (issue 28)', () => {
  async function mute(args: Record<string, number>): Promise<number> {
    const res = await admin.post('/api/2/admin/alerts/mutes/create', args)
    expect(res.status, res.text).toBe(200)
    return (res.json as { id: number }).id
  }

  it('marks a muted host, and the services muted by it or by their own mute, with the end of the mute in force', async () => {
    const now = Math.floor(Date.now() / 1000)
    const sleeper = (await services(admin, { hostid: id.alpha, servicepattern: 'sleeper' })).records[0]
    const hostMute = await mute({ hostid: id.bravo, until: now + 3600 })
    await mute({ hostid: id.bravo, until: now + 600 }) // a shorter one beside it: the later end counts
    await mute({ hostid: id.alpha, serviceid: sleeper.id, until: now + 1800 })

    const byName = Object.fromEntries((await hosts(admin)).records.map((h) => [h.hostname, h.muted]))
    // A muted service does not make its host muted.
    expect(byName).toEqual({ silent: null, delta: null, alpha: null, bravo: now + 3600 })
    const mutedServices = (await services(admin, { results: 1000 })).records.filter((s) => s.muted !== null)
    expect(new Set(mutedServices.map((s) => `${s.hostname}/${s.name}:${s.muted}`))).toEqual(
      new Set([
        ...(await services(admin, { hostid: id.bravo, results: 1000 })).records.map((s) => `bravo/${s.name}:${now + 3600}`),
        `alpha/sleeper:${now + 1800}`
      ])
    )
    // Not only administrators: anyone who may view the host sees it muted.
    expect((await services(viewer, { servicepattern: 'sleeper' })).records).toEqual([expect.objectContaining({ muted: now + 1800 })])

    const ended = await admin.post('/api/2/admin/alerts/mutes/end', { id: hostMute })
    expect(ended.status, ended.text).toBe(200)
    expect((await hosts(admin, { hostid: id.bravo })).records[0].muted).toBe(now + 600)
  })

  it("gives each service its host's last report, when its state was last told", async () => {
    const [host] = (await hosts(admin, { hostid: id.silent })).records
    const list = (await services(admin, { hostid: id.silent, results: 1000 })).records
    expect(list.length).toBeGreaterThan(0)
    for (const s of list) expect(s).toMatchObject({ heartbeat: 0, lastreport: host.lastreport })
  })
})
