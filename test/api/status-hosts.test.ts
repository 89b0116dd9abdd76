// status/hosts/{list,get,summary} over real HTTP, on data the real collector stored from Monit's own
// payloads (spec: Status hosts; compat 6.1–6.3, PAGE-1..4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostStatusEntry, StatisticEntry } from '../../src/shared/api/status'
import { anonymous, errorBody, loginAs, PREFIXES, type ApiClient, type ApiResponse } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { viewerOf } from '../support/viewers'
import { startTestServer, type TestServer } from '../support/in-process-server'

interface HostList {
  records: HostStatusEntry[]
  recordsReturned: number
  pageSize: number
  totalRecords: number
  startIndex: number
  sort: string
  dir: string
}
interface Service {
  id: number
  name: string
  type: string
  typeid: number
  status: string
  led: number
  events: number
  group: string[]
  pid?: number
  ppid?: number
  statistics: StatisticEntry[]
}
interface HostGet {
  records: { is_user_admin: boolean; serviceactions?: boolean; host: Record<string, unknown> & { services: Service[] } }
  recordsReturned: number
  totalRecords: number
  pageSize: number
  startIndex: number
  sort: string
  dir: string
}

const AGENT_SERVICES = [
  'agent1-host',
  'sleeper',
  'labfile',
  'labdir',
  'rootfs',
  'labfifo',
  'labprog',
  'truecheck',
  'lohost',
  'deadport',
  'loopback'
]

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
let groupViewer: ApiClient
const id: Record<string, number> = {}
const group: Record<string, number> = {}

/** A fixture as sent by another agent, optionally edited (same services, other figures). */
function payload(name: string, agentId: string, hostname: string, edit: (xml: string) => string = (x) => x): Buffer {
  return Buffer.from(edit(asAgent(fixture(name), agentId.repeat(32), hostname).toString('latin1')), 'latin1')
}

function hostGroup(name: string, hostIds: number[]): number {
  const { db, sql } = server.store
  const g = sql.first(db.insertInto('host_group').values({ name }).returning('id'))!
  sql.run(db.insertInto('host_group_member').values(hostIds.map((host_id) => ({ group_id: g.id, host_id }))))
  return g.id
}

beforeAll(async () => {
  server = await startTestServer()
  await server.collect(payload('02-status-heartbeat', 'a', 'alpha'))
  await server.collect(payload('03-event-process-not-running', 'a', 'alpha')) // an older snapshot: only its event counts
  await server.collect(
    payload('02-status-heartbeat', 'b', 'bravo', (xml) =>
      xml
        .replace('<status>32</status>', '<status>0</status>') // deadport recovered: every service OK
        .replace('<user>43.9</user>', '<user>10.0</user>')
        .replace('<memory><percent>3.3</percent>', '<memory><percent>50.5</percent>')
        .replace('<platform><name>Linux</name>', '<platform><name>FreeBSD</name>')
        .replace('<machine>x86_64</machine>', '<machine>aarch64</machine>')
        .replace('<uptime>80</uptime>', '<uptime>266460</uptime>') // the agent's
        .replace('<pendingaction>0</pendingaction>', '<pendingaction>0</pendingaction><uptime>93780</uptime>')
    )
  ) // the system's
  await server.collect(payload('02-status-heartbeat', 'c', 'charlie'))
  await server.collect(payload('05-event-monit-stopped', 'c', 'charlie'))
  await server.collect(payload('03-event-process-not-running', 'd', 'delta'))
  await server.collect(payload('02-status-heartbeat', 'e', 'echo'))

  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  for (const h of (await list(admin)).records) id[h.hostname] = h.id
  // Ignoring a host is the admin hosts API's job; here the store stands in for it.
  server.store.hosts.update(id.echo, { status: 2, led: 3, status_text: 'Ignored', cpu: null, mem: null })
  group.web = hostGroup('web', [id.alpha, id.bravo])
  group.db = hostGroup('db', [id.delta])
  viewer = await viewerOf(server, 'viewer', { hosts: [id.bravo] })
  groupViewer = await viewerOf(server, 'dbviewer', { groups: [group.db] })
})
afterAll(() => server.stopAndClean())

async function list(client: ApiClient, params = {}, prefix = '/api/2'): Promise<HostList> {
  const res = await client.get(`${prefix}/status/hosts/list`, params)
  expect(res.status).toBe(200)
  return res.json as HostList
}

const names = (l: HostList) => l.records.map((r) => r.hostname)

async function getHost(
  client: ApiClient,
  params: Record<string, string | number | (string | number)[]>,
  prefix = '/api/2'
): Promise<HostGet> {
  const res = await client.get(`${prefix}/status/hosts/get`, params)
  expect(res.status).toBe(200)
  return res.json as HostGet
}

const serviceNames = (g: HostGet) => g.records.host.services.map((s) => s.name)

function expectError(res: ApiResponse, status: number, error: string): void {
  expect(res.status).toBe(status)
  expect(res.json).toEqual(errorBody(error))
}

describe('status/hosts/list', () => {
  it.each(PREFIXES)('serves the full api/2 envelope under "%s", problem hosts first, then by name', async (prefix) => {
    const body = await list(admin, {}, prefix)
    expect(Object.keys(body)).toEqual(['records', 'recordsReturned', 'pageSize', 'totalRecords', 'startIndex', 'sort', 'dir'])
    expect(body).toMatchObject({ recordsReturned: 5, pageSize: 5, totalRecords: 5, startIndex: 0, sort: 'led', dir: 'asc' })
    expect(names(body)).toEqual(['alpha', 'delta', 'bravo', 'charlie', 'echo'])
  })

  it('reports what the collector stored for each host', async () => {
    const byName = Object.fromEntries((await list(admin)).records.map((r) => [r.hostname, r]))
    expect(byName.alpha).toEqual({
      id: id.alpha,
      led: 1,
      hostname: 'alpha',
      events: 1,
      cpu: 47.1,
      mem: 3.3,
      status: '10 out of 11 services are available',
      statusid: 0,
      heartbeat: 1
    })
    expect(byName.bravo).toMatchObject({ led: 2, events: 0, cpu: 13.2, mem: 50.5, status: '11 out of 11 services are available' })
    expect(byName.charlie).toMatchObject({ led: 3, statusid: 1, status: 'Monit is not running', events: 1 })
    expect(byName.delta).toMatchObject({ led: 1, cpu: 52, mem: 3.9, status: '9 out of 11 services are available', events: 1 })
    // cpu and mem not known: 0, never null
    expect(byName.echo).toMatchObject({ led: 3, statusid: 2, status: 'Ignored', cpu: 0, mem: 0 })
  })

  it('filters by each argument alone', async () => {
    expect(names(await list(admin, { hostid: id.bravo }))).toEqual(['bravo'])
    expect(names(await list(admin, { hostid: [id.echo, id.alpha] }))).toEqual(['alpha', 'echo'])
    expect(names(await list(admin, { hostpattern: 'LPh' }))).toEqual(['alpha'])
    expect(names(await list(admin, { hostpattern: '%' }))).toEqual([]) // wildcards are literal
    expect(names(await list(admin, { hostgroupid: group.web }))).toEqual(['alpha', 'bravo'])
    expect(names(await list(admin, { hostgroupid: [group.web, group.db] }))).toEqual(['alpha', 'delta', 'bravo'])
    expect(names(await list(admin, { led: 1 }))).toEqual(['alpha', 'delta'])
    expect(names(await list(admin, { led: [2, 3] }))).toEqual(['bravo', 'charlie', 'echo'])
    expect(names(await list(admin, { status: 1 }))).toEqual(['charlie'])
    expect(names(await list(admin, { status: ['Ignored', '1'] }))).toEqual(['charlie', 'echo'])
    expect(names(await list(admin, { platform: 'freebsd' }))).toEqual(['bravo'])
    expect(names(await list(admin, { machine: 'aarch64' }))).toEqual(['bravo'])
  })

  it('ignores compat filters it cannot make sense of', async () => {
    expect((await list(admin, { status: 'all', platform: '', machine: '' })).totalRecords).toBe(5)
  })

  it('combines filters', async () => {
    expect(names(await list(admin, { hostgroupid: group.web, led: 1 }))).toEqual(['alpha'])
    expect(names(await list(admin, { hostid: [id.alpha, id.delta], hostpattern: 'del' }))).toEqual(['delta'])
    expect(names(await list(admin, { hostgroupid: [group.web, group.db], led: [1, 2], hostpattern: 'a' }))).toEqual([
      'alpha',
      'delta',
      'bravo'
    ])
  })

  it('takes repeated arguments from a POST form body as from a query string', async () => {
    const res = await admin.post('/status/hosts/list', { hostid: [id.alpha, id.bravo, id.charlie], led: [1, 3] })
    expect(res.status).toBe(200)
    expect(names(res.json as HostList)).toEqual(['alpha', 'charlie'])
  })

  it('pages by record offset, and a page past the end is empty, not an error', async () => {
    const all = names(await list(admin))
    const first = await list(admin, { results: 1 })
    expect(first).toMatchObject({ recordsReturned: 1, pageSize: 1, totalRecords: 5, startIndex: 0 })
    const walked: string[] = []
    for (let start = 0; start < 5; start += 2) walked.push(...names(await list(admin, { results: 2, startindex: start })))
    expect(walked).toEqual(all)
    for (const startindex of [5, 99]) {
      expect(await list(admin, { results: 2, startindex })).toMatchObject({
        records: [],
        recordsReturned: 0,
        totalRecords: 5,
        startIndex: startindex
      })
    }
    expect(await list(admin, { results: 1000 })).toMatchObject({ recordsReturned: 5, pageSize: 1000, totalRecords: 5 })
  })

  it.each(['led', 'hostname', 'events', 'cpu', 'mem', 'status'] as const)('sorts by %s in both directions, ties by name', async (sort) => {
    for (const dir of ['asc', 'desc'] as const) {
      const body = await list(admin, { sort, dir })
      expect(body).toMatchObject({ sort, dir })
      const sign = dir === 'asc' ? 1 : -1
      const expected = [...body.records].sort((a, b) =>
        a[sort] < b[sort] ? -sign : a[sort] > b[sort] ? sign : a.hostname.localeCompare(b.hostname)
      )
      expect(names(body)).toEqual(names({ ...body, records: expected }))
    }
    expect(names(await list(admin, { sort: 'cpu', dir: 'desc' }))).toEqual(['delta', 'charlie', 'alpha', 'bravo', 'echo'])
  })

  it('falls back to the default order for an unknown sort or direction', async () => {
    const body = await list(admin, { sort: 'bogus', dir: 'sideways' })
    expect(body).toMatchObject({ sort: 'led', dir: 'asc' })
    expect(names(body)).toEqual(names(await list(admin)))
  })

  it('rejects invalid arguments with 400 naming the argument', async () => {
    expectError(await admin.get('/api/2/status/hosts/list', { led: 9 }), 400, "invalid argument 'led': expected a LED code 0 to 3")
    expectError(await admin.get('/api/2/status/hosts/list', { hostid: 'abc' }), 400, "invalid argument 'hostid': expected a whole number")
    expectError(
      await admin.post('/status/hosts/list', { hostgroupid: [group.web, 'x'] }),
      400,
      "invalid argument 'hostgroupid': expected a whole number"
    )
    expectError(
      await admin.get('/api/2/status/hosts/list', { results: 0 }),
      400,
      "invalid argument 'results': expected a page size of 1 or more"
    )
    expectError(
      await admin.get('/api/2/status/hosts/list', { startindex: -1 }),
      400,
      "invalid argument 'startindex': expected an offset of 0 or more"
    )
  })
})

describe('status/hosts/get', () => {
  it('answers the api/2 shape under /api/2: service-action flag and paging over services', async () => {
    const body = await getHost(admin, { id: id.alpha })
    expect(Object.keys(body)).toEqual(['records', 'recordsReturned', 'pageSize', 'totalRecords', 'startIndex', 'sort', 'dir'])
    expect(Object.keys(body.records)).toEqual(['is_user_admin', 'serviceactions', 'host'])
    expect(body).toMatchObject({
      records: { is_user_admin: true, serviceactions: true },
      recordsReturned: 11,
      pageSize: 11,
      totalRecords: 11,
      startIndex: 0,
      sort: 'position',
      dir: 'asc'
    })
  })

  it('answers the api/1 shape under /api/1 and api/1 plus api/2 fields on the legacy path', async () => {
    const v1 = await getHost(admin, { id: id.alpha }, '/api/1')
    expect(Object.keys(v1)).toEqual(['records'])
    expect(Object.keys(v1.records)).toEqual(['is_user_admin', 'host'])
    const legacy = await getHost(admin, { id: id.alpha }, '')
    expect(legacy).toEqual(await getHost(admin, { id: id.alpha }))
    expect(v1.records.host).toEqual(legacy.records.host)
  })

  it('describes the host as its agent reported it', async () => {
    const res = await admin.post('/api/2/status/hosts/get', { id: id.alpha })
    expect(res.headers.date).toBeDefined()
    const { host } = (res.json as HostGet).records
    expect(host).toMatchObject({
      id: id.alpha,
      name: 'alpha',
      hostname: 'alpha',
      led: 1,
      status: '10 out of 11 services are available',
      statusid: 0,
      heartbeat: 1,
      platform: { name: 'Linux', release: '6.18.44-fc-v669', version: '#1 SMP PREEMPT_DYNAMIC @0', machine: 'x86_64' },
      cpu: { count: 2 },
      memory: { size: 24731700 },
      swap: { size: 0 },
      agent: {
        id: 'a'.repeat(32),
        version: '5.33.0',
        controlfile: '/etc/monit/monitrc',
        poll: 5,
        startdelay: 0,
        uptime: expect.stringMatching(/^\d+m$/)
      },
      monit: { version: '5.33.0', uptime: expect.stringMatching(/^\d+m$/) },
      uptime: '' // this agent does not report the system's uptime
    })
    const bravo = (await getHost(admin, { id: id.bravo })).records.host
    expect(bravo).toMatchObject({ uptime: '1d 2h 3m', agent: { uptime: '3d 2h 1m' }, monit: { uptime: '3d 2h 1m' } })
  })

  it('lists the services in agent order with their latest state and statistics', async () => {
    const body = await getHost(admin, { id: id.alpha })
    expect(serviceNames(body)).toEqual(AGENT_SERVICES)
    const byName = Object.fromEntries(body.records.host.services.map((s) => [s.name, s]))
    const stat = (service: string, type: number) => byName[service].statistics.find((s) => s.type === type)
    expect(byName.rootfs).toMatchObject({ type: 'Filesystem', typeid: 0, status: 'OK', led: 2, every: '', group: [] })
    expect(stat('rootfs', 18)?.value).toBe(8.8)
    expect(stat('rootfs', 20)?.value).toBe(258019.6)
    expect(stat('rootfs', 53)?.value).toBe('ext4')
    expect(byName.deadport).toMatchObject({ type: 'Remote Host', status: 'Connection failed', led: 0, statistics: [] })
    expect(byName.lohost.type).toBe('Remote Host')
    expect(stat('lohost', 15)).toMatchObject({ descriptor: '127.0.0.1:2812 [DEFAULT/TCP]', value: 0.00005 })
    expect(byName.sleeper).toMatchObject({
      type: 'Process',
      typeid: 3,
      pid: 8382,
      ppid: 1,
      events: 1,
      group: ['lab'],
      monitorstate: 1,
      monitormode: 0,
      onreboot: 0,
      nameid: expect.any(Number)
    })
    expect(byName.labfile).not.toHaveProperty('pid')
    expect(stat('labfile', 32)).toMatchObject({ descriptor: 'MD5', value: '7a82895b34cc2432272f08d29f14d4f8' })
    expect(stat('labprog', 35)?.value).toBe('labprog says hello at 1795300301')
    expect(byName.loopback.type).toBe('Network')
    const statIds = body.records.host.services.flatMap((s) => s.statistics.map((st) => st.id))
    expect(statIds.every(Number.isInteger)).toBe(true)
    expect(new Set(statIds).size).toBe(statIds.length)
  })

  it('filters services by LED and name pattern, counting the matches', async () => {
    expect(serviceNames(await getHost(admin, { id: id.alpha, led: 0 }))).toEqual(['deadport'])
    expect(serviceNames(await getHost(admin, { id: id.alpha, servicepattern: 'LAB' }))).toEqual(['labfile', 'labdir', 'labfifo', 'labprog'])
    const both = await getHost(admin, { id: id.alpha, led: [0, 3], servicepattern: 'o' })
    expect(serviceNames(both)).toEqual(['deadport'])
    expect(both).toMatchObject({ recordsReturned: 1, totalRecords: 1 })
    const viaForm = await admin.post('/api/2/status/hosts/get', { id: id.alpha, led: [0, 2], servicepattern: 'port' })
    expect(serviceNames(viaForm.json as HostGet)).toEqual(['deadport'])
  })

  it('pages and sorts services', async () => {
    const tail = await getHost(admin, { id: id.alpha, results: 3, startindex: 9 })
    expect(serviceNames(tail)).toEqual(['deadport', 'loopback'])
    expect(tail).toMatchObject({ recordsReturned: 2, pageSize: 3, totalRecords: 11, startIndex: 9 })
    expect(await getHost(admin, { id: id.alpha, startindex: 11 })).toMatchObject({ recordsReturned: 0, totalRecords: 11 })
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'name' }))).toEqual([...AGENT_SERVICES].sort())
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'name', dir: 'desc' }))).toEqual([...AGENT_SERVICES].sort().reverse())
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'led', results: 1 }))).toEqual(['deadport'])
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'events', dir: 'desc', results: 1 }))).toEqual(['sleeper'])
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'type' }))).toEqual([
      'rootfs',
      'labdir',
      'labfile',
      'sleeper',
      'lohost',
      'deadport',
      'agent1-host',
      'labfifo',
      'labprog',
      'truecheck',
      'loopback'
    ])
    expect(serviceNames(await getHost(admin, { id: id.alpha, sort: 'status', results: 1 }))).toEqual(['deadport'])
    const fallback = await getHost(admin, { id: id.alpha, sort: 'bogus' })
    expect(fallback.sort).toBe('position')
    expect(serviceNames(fallback)).toEqual(AGENT_SERVICES)
  })

  it('rejects a missing or malformed id with 400 and an unknown host with 404', async () => {
    expectError(await admin.get('/api/2/status/hosts/get'), 400, "invalid argument 'id': is required")
    expectError(await admin.get('/api/2/status/hosts/get', { id: 'abc' }), 400, "invalid argument 'id': expected a whole number")
    expectError(
      await admin.get('/api/2/status/hosts/get', { id: id.alpha, led: 9 }),
      400,
      "invalid argument 'led': expected a LED code 0 to 3"
    )
    expectError(await admin.get('/api/1/status/hosts/get', { id: 999 }), 404, 'no host with id 999')
  })
})

describe('status/hosts/summary', () => {
  it.each(PREFIXES)('counts every host in all six categories, in order, under "%s"', async (prefix) => {
    const res = await admin.get(`${prefix}/status/hosts/summary`)
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      status: [
        { label: 'failed', data: 0 },
        { label: 'services failed', data: 0 },
        { label: 'some services failed/unmonitored', data: 2 },
        { label: 'ok', data: 1 },
        { label: 'inactive', data: 1 },
        { label: 'ignored', data: 1 }
      ]
    })
  })

  it('narrows to the given hosts and host groups (api/2)', async () => {
    const counts = async (params: Record<string, number | number[]>) =>
      Object.fromEntries(
        ((await admin.post('/api/2/status/hosts/summary', params)).json as { status: { label: string; data: number }[] }).status.map(
          (s) => [s.label, s.data]
        )
      )
    expect(await counts({ hostid: [id.bravo, id.charlie] })).toMatchObject({
      ok: 1,
      inactive: 1,
      'some services failed/unmonitored': 0,
      ignored: 0
    })
    expect(await counts({ hostgroupid: group.web })).toMatchObject({ ok: 1, 'some services failed/unmonitored': 1, inactive: 0 })
  })
})

describe('permissions', () => {
  it('shows a viewer only the hosts they may view, whatever the filters', async () => {
    expect(await list(viewer)).toMatchObject({ totalRecords: 1, records: [{ hostname: 'bravo' }] })
    expect(await list(viewer, { hostid: [id.alpha, id.bravo] })).toMatchObject({ totalRecords: 1, records: [{ hostname: 'bravo' }] })
    expect((await list(viewer, { hostid: id.alpha })).totalRecords).toBe(0)
    expect(names(await list(groupViewer))).toEqual(['delta'])
  })

  it('answers 404 for a host the viewer may not view, exactly as for an unknown one', async () => {
    expectError(await viewer.get('/api/2/status/hosts/get', { id: id.alpha }), 404, `no host with id ${id.alpha}`)
    const own = await getHost(viewer, { id: id.bravo })
    expect(own.records).toMatchObject({ is_user_admin: false, serviceactions: false, host: { hostname: 'bravo' } })
  })

  it('counts only viewable hosts in the summary', async () => {
    const res = await viewer.get('/status/hosts/summary')
    const data = (res.json as { status: { label: string; data: number }[] }).status.map((s) => s.data)
    expect(data).toEqual([0, 0, 0, 1, 0, 0])
  })

  it.each(['/api/2/status/hosts/list', '/status/hosts/get?id=1', '/api/1/status/hosts/summary'])(
    'answers %s without a session with the login page',
    async (path) => {
      const res = await (await anonymous(server.baseUrl)).get(path)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('text/html')
      expect(res.text).toContain('z_security_check')
    }
  )
})
