// Every endpoint × {admin, viewer of host A only, that viewer's full API token, collector-only, disabled
// role, no session}, under every prefix: exactly the allowed results, and nothing of hosts outside the
// caller's role rows. The token may do what its owner may, but the session-only endpoints. The
// collector-only user cannot log in (issue 26): its session here is one opened before its role was that.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiEndpoints } from '../../src/server/api/endpoints'
import { anonymous, encodeParams, httpRequest, loginAs, type ApiClient, type ApiResponse, type Params } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { createMMonitSqlite } from '../support/mmonit-database'

const AGENT_A = 'a'.repeat(32)
const AGENT_B = 'b'.repeat(32)
let server: TestServer
let hostA: number
let hostB: number
let eventA: number
let mmonitDb: string
const callers: Record<'admin' | 'viewerA' | 'viewerToken' | 'collector' | 'disabled' | 'anonymous', ApiClient> = {} as never

/** A script sending only `Authorization: Bearer <token>`: no cookie, no CSRF token. */
function tokenClient(token: string): ApiClient {
  const auth = { Authorization: `Bearer ${token}` }
  return {
    cookie: undefined,
    get: (path, params) => httpRequest(server.baseUrl, 'GET', `${path}?${encodeParams(params)}`, undefined, auth),
    post: (path, params) =>
      httpRequest(server.baseUrl, 'POST', path, encodeParams(params), { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' }),
    csrfToken: () => Promise.resolve('')
  }
}
/** What an API token may not call, whoever owns it. */
const SESSION_ONLY = new Set(['session/put', 'session/get', 'session/delete', 'profile/update', 'tokens/create'])

beforeAll(async () => {
  server = await startTestServer()
  mmonitDb = join(server.dataDir, 'mmonit.db')
  createMMonitSqlite(mmonitDb)
  for (const [id, name] of [
    [AGENT_A, 'web-a'],
    [AGENT_B, 'web-b']
  ]) {
    await server.collect(asAgent(fixture('03-event-process-not-running'), id, name))
  }
  const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  const hosts = ((await admin.get('/api/2/admin/hosts/list')).json as { records: { id: number; hostname: string }[] }).records
  hostA = hosts.find((h) => h.hostname === 'web-a')!.id
  hostB = hosts.find((h) => h.hostname === 'web-b')!.id
  eventA = (server.store.sql.plain.prepare('SELECT id FROM event WHERE host_id = ?').get(hostA) as { id: number }).id
  // Roles and users made through the API, as an administrator would.
  const role = async (params: Params) => ((await admin.post('/api/2/admin/roles/create', params)).json as { id: number }).id
  const viewA = await role({ name: 'view A', admin: false, active: true, rolerowscount: 1, hosts0: hostA, permission0: 2 })
  const off = await role({ name: 'disabled viewers', admin: false, active: false, rolerowscount: 1, permission0: 6 })
  for (const [uname, roleid] of [
    ['viewer', viewA],
    ['offuser', off]
  ] as const) {
    expect((await admin.post('/api/2/admin/users/create', { uname, password: 'pw-' + uname, fullname: uname, roleid })).status).toBe(200)
  }
  callers.admin = admin
  callers.viewerA = await loginAs(server.baseUrl, 'viewer', 'pw-viewer')
  const made = await callers.viewerA.post('/api/2/tokens/create', { name: 'matrix', scope: 'full' })
  callers.viewerToken = tokenClient((made.json as { token: string }).token)
  callers.collector = await anonymous(server.baseUrl)
  const collectorId = server.store.users.credentialsOf('monit')!.id
  server.store.sessions.update(callers.collector.cookie!.split('=')[1], { user_id: collectorId, csrf_protection: 0 })
  callers.disabled = await loginAs(server.baseUrl, 'offuser', 'pw-offuser')
  callers.anonymous = await anonymous(server.baseUrl)
})
afterAll(() => server.stopAndClean())

type Expectation = 'login page' | 'forbidden' | 'allowed' | 'not found'
const NONE = 999_999

interface Row {
  path: string
  method: 'GET' | 'POST'
  params: () => Params
  expect: Record<'admin' | 'viewerA' | 'disabled', Expectation>
}
const admins: Row['expect'] = { admin: 'allowed', viewerA: 'forbidden', disabled: 'forbidden' }
const everyone: Row['expect'] = { admin: 'allowed', viewerA: 'allowed', disabled: 'allowed' }
const viewersOfA: Row['expect'] = { admin: 'allowed', viewerA: 'allowed', disabled: 'not found' }

// Admin mutations target ids that do not exist (or throw-away names): an administrator is let through
// to the argument checks (404/409), everyone else is stopped at the door (403).
const table: Row[] = [
  { path: 'status/hosts/list', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'status/hosts/get', method: 'GET', params: () => ({ id: hostA }), expect: viewersOfA },
  { path: 'status/hosts/summary', method: 'POST', params: () => ({}), expect: everyone },
  { path: 'status/hosts/overview', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'status/services/list', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'reports/uptime/list', method: 'GET', params: () => ({ range: 5 }), expect: everyone },
  { path: 'reports/events/list', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'reports/events/summary', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'reports/events/get', method: 'GET', params: () => ({ id: eventA }), expect: viewersOfA },
  { path: 'reports/events/dismiss', method: 'POST', params: () => ({ id: eventA }), expect: viewersOfA },
  { path: 'reports/events/note', method: 'POST', params: () => ({ id: eventA, message: 'seen' }), expect: viewersOfA },
  { path: 'reports/uptime/get', method: 'GET', params: () => ({ id: hostA }), expect: viewersOfA },
  { path: 'reports/analytics/get', method: 'GET', params: () => ({ hostid: hostA }), expect: viewersOfA },
  { path: 'reports/forecasts/host', method: 'GET', params: () => ({ hostid: hostA }), expect: viewersOfA },
  { path: 'reports/forecasts/list', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'map/id/range', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'map/id/statisticstype', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'map/id/hoststatus', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'map/name/host', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'session/put', method: 'POST', params: () => ({ k: 'v' }), expect: everyone },
  { path: 'session/get', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'profile/get', method: 'GET', params: () => ({}), expect: everyone },
  // An empty change answers the caller's own profile: every logged-in user may edit their own.
  { path: 'profile/update', method: 'POST', params: () => ({}), expect: everyone },
  { path: 'tokens/list', method: 'GET', params: () => ({}), expect: everyone },
  { path: 'tokens/create', method: 'POST', params: () => ({ name: 'x', scope: 'read' }), expect: everyone },
  {
    path: 'tokens/revoke',
    method: 'POST',
    params: () => ({ id: NONE }),
    expect: { admin: 'allowed', viewerA: 'not found', disabled: 'not found' }
  },
  { path: 'admin/tokens/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/tokens/revoke', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'settings/get', method: 'GET', params: () => ({}), expect: admins },
  { path: 'settings/update', method: 'POST', params: () => ({}), expect: admins },
  { path: 'session/delete', method: 'POST', params: () => ({ key: 'k' }), expect: everyone },
  { path: 'admin/hosts/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/hosts/get', method: 'GET', params: () => ({ id: hostA }), expect: admins },
  {
    path: 'admin/hosts/update',
    method: 'POST',
    params: () => ({ id: NONE, hostname: 'x', agentuser: 'u', agentpassword: 'p' }),
    expect: admins
  },
  { path: 'admin/hosts/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/groups/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/groups/declared', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/groups/create', method: 'POST', params: () => ({ name: `g${Math.random()}` }), expect: admins },
  { path: 'admin/groups/update', method: 'POST', params: () => ({ id: NONE, name: 'x' }), expect: admins },
  { path: 'admin/groups/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/groups/add', method: 'POST', params: () => ({ id: NONE, hostid: hostA }), expect: admins },
  { path: 'admin/groups/remove', method: 'POST', params: () => ({ id: NONE, hostid: hostA }), expect: admins },
  { path: 'admin/users/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/users/get', method: 'GET', params: () => ({ uname: 'viewer', id: 1 }), expect: admins },
  {
    path: 'admin/users/create',
    method: 'POST',
    params: () => ({ uname: 'admin', password: 'x-password', fullname: 'x', roleid: 3 }),
    expect: admins
  },
  {
    path: 'admin/users/update',
    method: 'POST',
    params: () => ({ id: NONE, uname: 'ghost', password: 'x-password', oldpassword: 'x-password', fullname: 'x', roleid: 3 }),
    expect: admins
  },
  { path: 'admin/users/delete', method: 'POST', params: () => ({ uname: 'ghost', id: NONE }), expect: admins },
  { path: 'admin/roles/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/alerts/deliveries/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/audit/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/agents/refused/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/agents/refused/dismiss', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/pulled/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/pulled/create', method: 'POST', params: () => ({ url: 'http://127.0.0.1:9', password: 'x' }), expect: admins },
  { path: 'admin/pulled/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/sso/get', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/sso/groups/update', method: 'POST', params: () => ({ group: 'rbac-matrix' }), expect: admins },
  { path: 'admin/audit/export', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/roles/create', method: 'POST', params: () => ({ name: 'Administrator', admin: false, active: true }), expect: admins },
  { path: 'admin/roles/update', method: 'POST', params: () => ({ id: NONE, name: 'x', admin: false, active: true }), expect: admins },
  { path: 'admin/roles/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/roles/adduser', method: 'POST', params: () => ({ id: NONE, userid: 1 }), expect: admins },
  { path: 'admin/roles/removeuser', method: 'POST', params: () => ({ id: NONE, userid: 1 }), expect: admins },
  { path: 'admin/roles/updateactive', method: 'POST', params: () => ({ id: NONE, active: true }), expect: admins },
  // A refused port answers at once: the administrator gets a "red" result, others a 403.
  {
    path: 'admin/hosts/test',
    method: 'POST',
    params: () => ({ ipaddr: '127.0.0.1', port: 1, ssl: 0, agentuser: 'a', agentpassword: 'b' }),
    expect: admins
  },
  // Service actions need the serviceactions bit on the host: nobody but the administrator holds it here.
  { path: 'admin/hosts/action', method: 'POST', params: () => ({ id: NONE, action: 'stop', service: 'sleeper' }), expect: admins },
  { path: 'action/service', method: 'POST', params: () => ({ hostid: NONE, action: 'stop', service: 'sleeper' }), expect: admins },
  { path: 'admin/alerts/channels/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/alerts/channels/get', method: 'GET', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/channels/create', method: 'POST', params: () => ({ type: 'desktop', name: `c${Math.random()}` }), expect: admins },
  { path: 'admin/alerts/channels/update', method: 'POST', params: () => ({ id: NONE, name: 'x' }), expect: admins },
  { path: 'admin/alerts/channels/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/channels/test', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/rules/list', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/alerts/rules/get', method: 'GET', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/rules/inscope', method: 'GET', params: () => ({ servicepattern: 'x' }), expect: admins },
  { path: 'admin/alerts/rules/create', method: 'POST', params: () => ({ name: 'x', channelid: NONE }), expect: admins },
  { path: 'admin/alerts/rules/update', method: 'POST', params: () => ({ id: NONE, name: 'x' }), expect: admins },
  { path: 'admin/alerts/rules/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/mutes/list', method: 'GET', params: () => ({}), expect: admins },
  {
    path: 'admin/alerts/mutes/create',
    method: 'POST',
    params: () => ({ hostid: NONE, until: Math.floor(Date.now() / 1000) + 600 }),
    expect: admins
  },
  { path: 'admin/alerts/mutes/end', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  { path: 'admin/alerts/mutes/delete', method: 'POST', params: () => ({ id: NONE }), expect: admins },
  // A dry run of a real M/Monit database: 200 (409 when the one before still counts).
  { path: 'admin/import/mmonit/start', method: 'POST', params: () => ({ source: `sqlite:${mmonitDb}`, dryrun: true }), expect: admins },
  { path: 'admin/import/mmonit/status', method: 'GET', params: () => ({}), expect: admins },
  { path: 'admin/import/mmonit/cancel', method: 'POST', params: () => ({}), expect: admins }
]

function classify(res: ApiResponse): Expectation | `unexpected ${number}` {
  if (res.status === 200 && res.headers['content-type'] === 'text/html') return 'login page'
  if (res.status === 403 && typeof (res.json as { error?: string })?.error === 'string') return 'forbidden'
  if (res.status === 404) return 'not found'
  if (res.status === 200 || res.status === 409) return 'allowed'
  return `unexpected ${res.status}`
}

const call = (c: ApiClient, row: Row, prefix: string) =>
  row.method === 'GET' ? c.get(`${prefix}/${row.path}`, row.params()) : c.post(`${prefix}/${row.path}`, row.params())

describe('RBAC matrix', () => {
  it('covers every endpoint the server serves', () => {
    const served = new Set(apiEndpoints(server as never).map((e) => e.path))
    expect([...served].filter((p) => !table.some((r) => r.path === p)).sort()).toEqual(['session/invalidate'])
  })

  for (const prefix of ['', '/api/1', '/api/2']) {
    for (const caller of ['admin', 'viewerA', 'viewerToken', 'collector', 'disabled', 'anonymous'] as const) {
      it(`${caller} under "${prefix || '/'}"`, async () => {
        const results: Record<string, string> = {}
        const expected: Record<string, string> = {}
        for (const row of table) {
          const res = await call(callers[caller], row, prefix)
          let outcome: string = classify(res)
          // Admin mutations aimed at nothing: 404 and 409 both mean "got past the permission check".
          if (caller === 'admin' && row.expect.admin === 'allowed' && outcome === 'not found') outcome = 'allowed'
          results[row.path] = outcome
          expected[row.path] =
            caller === 'anonymous' || caller === 'collector'
              ? 'login page'
              : caller === 'viewerToken'
                ? SESSION_ONLY.has(row.path)
                  ? 'forbidden'
                  : row.expect.viewerA
                : row.expect[caller]
          if (caller === 'viewerA' || caller === 'viewerToken') expect(res.text, `${row.path} leaks host B`).not.toMatch(/web-b|bbbbbbbb/)
        }
        expect(results).toEqual(expected)
      })
    }
  }

  it('a viewer of host A sees host A only, in lists, details and the summary', async () => {
    const v = callers.viewerA
    const list = (await v.get('/api/2/status/hosts/list')).json as { records: { id: number }[]; totalRecords: number }
    expect(list.records.map((r) => r.id)).toEqual([hostA])
    expect((await v.get('/api/2/status/hosts/get', { id: hostB })).status).toBe(404)
    const summary = (await v.get('/api/2/status/hosts/summary')).json as { status: { data: number }[] }
    expect(summary.status.reduce((n, s) => n + s.data, 0)).toBe(1)
    const detail = (await v.get('/api/2/status/hosts/get', { id: hostA })).json as {
      records: { serviceactions: boolean; is_user_admin: boolean }
    }
    expect(detail.records).toMatchObject({ serviceactions: false, is_user_admin: false })
  })

  it('the status detail tells an administrator the truth about actions', async () => {
    const detail = (await callers.admin.get('/api/2/status/hosts/get', { id: hostB })).json as {
      records: { serviceactions: boolean; is_user_admin: boolean }
    }
    expect(detail.records).toMatchObject({ serviceactions: true, is_user_admin: true })
  })

  it('users of a disabled role see no host at all', async () => {
    expect(((await callers.disabled.get('/api/2/status/hosts/list')).json as { totalRecords: number }).totalRecords).toBe(0)
  })

  it('/collector: the collector user may post, viewers and disabled roles may not', async () => {
    const body = asAgent(fixture('02-status-heartbeat'), AGENT_A, 'web-a')
    await server.collect(body)
    expect((await postCollector(server.baseUrl, body, { auth: 'viewer:pw-viewer' })).status).toBe(403)
    expect((await postCollector(server.baseUrl, body, { auth: 'offuser:pw-offuser' })).status).toBe(403)
  })

  it('session/invalidate logs out every kind of user', async () => {
    for (const [user, pw] of [
      ['admin', 'adminsecret'],
      ['viewer', 'pw-viewer'],
      ['offuser', 'pw-offuser']
    ]) {
      const c = await loginAs(server.baseUrl, user, pw)
      expect((await c.get('/api/2/session/invalidate')).json).toEqual({})
      expect((await c.get('/api/2/session/get')).headers['content-type']).toBe('text/html')
    }
  })
})
