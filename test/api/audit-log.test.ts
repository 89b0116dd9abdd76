// The audit log over real HTTP (issue 26 item 8): each change leaves exactly one row saying who, what,
// when and from where, in the transaction of the change (a change that fails leaves none; an audit row
// that cannot be written undoes the change); failed logins too; never a secret; admin/audit/list filters
// and pages, admin/audit/export answers CSV, both for administrators only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AuditList, AuditRecord } from '../../src/shared/api/audit'
import { anonymous, type ApiClient, loginAs } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { ADMIN, startTestServer, type TestServer } from '../support/in-process-server'
import { freePort } from '../support/ports'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient
let hostId: number
beforeAll(async () => {
  server = await startTestServer()
  hostId = await server.addHost('audit-agent-1', 'web1')
  admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password, { csrf: 'on' })
})
afterAll(() => server.stopAndClean())
beforeEach(() => {
  server.store.sql.execute('DELETE FROM audit_log')
})

const post = async (path: string, params: Record<string, string | number | readonly (string | number)[]>) =>
  admin.post(`/api/2/${path}`, params, { CSRFToken: await admin.csrfToken() })
const rows = (): AuditRecord[] =>
  server.store.sql.rows<AuditRecord>(
    'SELECT id, at, user_id AS "userId", uname, address, action, target, detail FROM audit_log ORDER BY id'
  )
const adminId = () => server.store.users.findByName(ADMIN.user)!.id

describe('the audit log records', () => {
  it('logins, and failed ones with the name tried, from the address they came from', async () => {
    const before = Math.floor(Date.now() / 1000)
    await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    const stranger = await anonymous(server.baseUrl)
    await stranger.post('/z_security_check', { z_username: 'nobody', z_password: 'guess-1' })
    await stranger.post('/z_security_check', { z_username: ADMIN.user, z_password: 'guess-2' })
    const [ok, unknown, wrong] = rows()
    expect(rows()).toHaveLength(3)
    expect(ok).toMatchObject({
      userId: adminId(),
      uname: 'admin',
      address: '127.0.0.1',
      action: 'login',
      target: `user ${adminId()} admin`
    })
    expect(ok.at).toBeGreaterThanOrEqual(before)
    expect(unknown).toMatchObject({ userId: null, uname: 'nobody', address: '127.0.0.1', action: 'login-failed', detail: 'unknown user' })
    expect(wrong).toMatchObject({ userId: adminId(), uname: 'admin', action: 'login-failed', detail: 'wrong password' })
  })

  it('logouts, by GET (M/Monit clients) or by POST (the console); an anonymous session ending records nothing', async () => {
    const byGet = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    await byGet.get('/login/logout.csp')
    const byPost = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password, { csrf: 'on' })
    await byPost.post('/login/logout.csp', { CSRFToken: await byPost.csrfToken() })
    await (await anonymous(server.baseUrl)).get('/login/logout.csp')
    expect(rows().map((r) => [r.action, r.userId, r.target])).toEqual([
      ['login', adminId(), `user ${adminId()} admin`],
      ['logout', adminId(), `user ${adminId()} admin`],
      ['login', adminId(), `user ${adminId()} admin`],
      ['logout', adminId(), `user ${adminId()} admin`]
    ])
  })

  it('Basic logins: each failure, and a success once (not each post the cache lets through)', async () => {
    addUser(server.store, { uname: 'agent2', password: 'agent2-password', roleIds: [2] })
    const body = asAgent(fixture('02-status-heartbeat'), 'audit-agent-2', 'db1')
    expect((await postCollector(server.baseUrl, body, { auth: 'agent2:wrong-password' })).status).toBe(401)
    expect((await postCollector(server.baseUrl, body, { auth: 'agent2:agent2-password' })).status).toBe(200)
    expect((await postCollector(server.baseUrl, body, { auth: 'agent2:agent2-password' })).status).toBe(200)
    const agent2 = server.store.users.findByName('agent2')!.id
    expect(rows().map((r) => [r.userId, r.uname, r.address, r.action, r.detail])).toEqual([
      [agent2, 'agent2', '127.0.0.1', 'login-failed', 'basic: wrong password'],
      [agent2, 'agent2', '127.0.0.1', 'login', 'basic']
    ])
    expect(JSON.stringify(rows())).not.toContain('wrong-password')
  })

  it('each change once, as done by whom, from where', async () => {
    const created = await post('admin/users/create', { uname: 'carol', password: 'carol-password-1', fullname: 'Someone', roleid: [3] })
    const carolId = (created.json as { id: number }).id
    await post('admin/users/update', { id: carolId, uname: 'carol2', password: 'carol-password-2', fullname: 'Someone', roleid: [3] })
    const role = (await post('admin/roles/create', { name: 'ops', admin: 0, active: 1 })).json as { id: number }
    const group = (await post('admin/groups/create', { name: 'web' })).json as { id: number }
    await post('admin/groups/add', { id: group.id, hostid: hostId })
    const hostUpdate = await post('admin/hosts/update', {
      id: hostId,
      hostname: 'web1',
      agentuser: 'monit',
      agentpassword: 'agent-pw-1',
      description: 'front'
    })
    expect(hostUpdate.status, hostUpdate.text).toBe(200)
    const channel = (await post('admin/alerts/channels/create', { type: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/h' })).json as {
      id: number
    }
    const rule = (await post('admin/alerts/rules/create', { name: 'all', channelid: channel.id })).json as { id: number }
    const mute = (await post('admin/alerts/mutes/create', { hostid: hostId, until: Math.floor(Date.now() / 1000) + 3600 })).json as {
      id: number
    }
    await post('settings/update', { sessiontimeout: 3600 })
    await post('profile/update', { email: 'admin@example.com', oldpassword: ADMIN.password, password: ADMIN.password })
    await post('admin/roles/delete', { id: role.id })
    await post('admin/users/delete', { id: carolId })
    expect(rows().map((r) => [r.action, r.target])).toEqual([
      ['user.create', `user ${carolId} carol`],
      ['user.update', `user ${carolId} carol2`],
      ['role.create', `role ${role.id} ops`],
      ['group.create', `group ${group.id} web`],
      ['group.add', `group ${group.id} web`],
      ['host.update', `host ${hostId} web1`],
      ['alert-channel.create', `alert-channel ${channel.id} hook`],
      ['alert-rule.create', `alert-rule ${rule.id} all`],
      ['alert-mute.create', `alert-mute ${mute.id} host ${hostId}`],
      ['settings.update', 'settings'],
      ['profile.update', `user ${adminId()} admin`],
      ['role.delete', `role ${role.id} ops`],
      ['user.delete', `user ${carolId} carol2`]
    ])
    for (const r of rows()) expect(r).toMatchObject({ userId: adminId(), uname: 'admin', address: '127.0.0.1' })
    expect(JSON.parse(rows()[1].detail)).toEqual({ roles: [3], passwordChanged: true })
    expect(JSON.parse(rows()[9].detail)).toEqual({ sessiontimeout: 3600 })
    expect(JSON.parse(rows()[10].detail)).toEqual({ email: 'admin@example.com', passwordChanged: true })
  })

  it('a service action once the agent answered, failed when it could not be reached', async () => {
    // A call-back nobody listens on: the agent call fails after the request was made.
    const callBack = { ipaddrout: '127.0.0.1', portout: await freePort(), sslout: 0 }
    const update = await post('admin/hosts/update', {
      id: hostId,
      hostname: 'web1',
      agentuser: 'monit',
      agentpassword: 'agent-pw-1',
      ...callBack
    })
    expect(update.status, update.text).toBe(200)
    server.store.sql.execute('DELETE FROM audit_log')
    const service = server.store.services.ofHost(hostId)[0].name
    const res = await post('admin/hosts/action', { id: hostId, action: 'restart', service })
    expect(res.status).not.toBe(200)
    expect(rows()).toEqual([
      expect.objectContaining({
        action: 'service.action',
        target: `host ${hostId} web1`,
        uname: 'admin',
        detail: JSON.stringify({ action: 'restart', services: [service], outcome: 'failed' })
      })
    ])
  })
})

describe('events', () => {
  it('a note and a dismissal', async () => {
    await server.collect(asAgent(fixture('03-event-process-not-running'), 'audit-agent-3', 'app1'))
    const [{ id }] = server.store.sql.rows<{ id: number }>('SELECT id FROM event WHERE active = 1 ORDER BY id DESC LIMIT 1')
    server.store.sql.execute('DELETE FROM audit_log')
    expect((await post('reports/events/note', { id, message: 'looking' })).status).toBe(200)
    expect((await post('reports/events/dismiss', { id })).status).toBe(200)
    expect(rows().map((r) => [r.action, r.target, r.uname])).toEqual([
      ['event.note', `event ${id}`, 'admin'],
      ['event.dismiss', `event ${id}`, 'admin']
    ])
  })
})

describe('API tokens', () => {
  it('their creation and revocation, never the token', async () => {
    const created = (await post('tokens/create', { name: 'grafana', scope: 'read', expires: 30 })).json as { id: number; token: string }
    await post('tokens/revoke', { id: created.id })
    expect(rows().map((r) => [r.action, r.target, r.detail])).toEqual([
      ['token.create', `token ${created.id} grafana`, JSON.stringify({ scope: 'read', expires: 30 })],
      ['token.revoke', `token ${created.id}`, '']
    ])
    expect(JSON.stringify(rows())).not.toContain(created.token)
  })
})

describe('a change that does not happen leaves no row', () => {
  it('refused with a 409 or a 400', async () => {
    expect(
      (await post('admin/users/create', { uname: 'admin', password: 'whatever-long-1', fullname: 'Someone', roleid: [3] })).status
    ).toBe(409)
    expect((await post('settings/update', { sessiontimeout: 3600, eventretention: 5 })).status).toBe(400)
    expect((await post('admin/groups/delete', { id: 9999 })).status).toBe(404)
    expect(rows()).toEqual([])
  })

  it('rolled back with its row: when the row cannot be written, the change is not made either', async () => {
    server.store.sql.execute('ALTER TABLE audit_log RENAME TO audit_log_away')
    try {
      expect((await post('admin/groups/create', { name: 'unrecorded' })).status).toBe(500)
    } finally {
      server.store.sql.execute('ALTER TABLE audit_log_away RENAME TO audit_log')
    }
    expect(server.store.groups.list().map((g) => g.name)).not.toContain('unrecorded')
  })
})

describe('no secret reaches the log', () => {
  it('neither passwords, nor agent passwords, nor channel secrets', async () => {
    const secrets = ['user-Secret-Pw-1', 'user-Secret-Pw-2', 'agent-Secret-Pw', 'hook-Secret-Sig']
    const id = (
      (await post('admin/users/create', { uname: 'dave', password: secrets[0], fullname: 'Someone', roleid: [3] })).json as { id: number }
    ).id
    await post('admin/users/update', { id, uname: 'dave', password: secrets[1], fullname: 'Someone', roleid: [3] })
    await post('admin/hosts/update', { id: hostId, hostname: 'web1', agentuser: 'monit', agentpassword: secrets[2] })
    await post('admin/alerts/channels/create', { type: 'webhook', name: 'signed', url: 'http://127.0.0.1:9/h', secret: secrets[3] })
    const stranger = await anonymous(server.baseUrl)
    await stranger.post('/z_security_check', { z_username: 'dave', z_password: secrets[0] + 'x' })
    expect(rows().map((r) => r.action)).toEqual(['user.create', 'user.update', 'host.update', 'alert-channel.create', 'login-failed'])
    expect(JSON.parse(rows()[2].detail)).toMatchObject({ agentuser: 'monit', agentpassword: '(set)' })
    const everything = JSON.stringify(rows()) + (await admin.get('/api/2/admin/audit/export')).text
    for (const secret of secrets) expect(everything).not.toContain(secret)
  })
})

describe('admin/audit/list and admin/audit/export', () => {
  const list = async (params: Record<string, string | number> = {}) =>
    (await admin.get('/api/2/admin/audit/list', params)).json as AuditList

  it('filters by user, action, text and dates, newest first, in bounded pages', async () => {
    for (const name of ['alpha', 'beta', 'gamma']) await post('admin/groups/create', { name })
    const stranger = await anonymous(server.baseUrl)
    await stranger.post('/z_security_check', { z_username: 'mallory', z_password: 'x' })
    const all = await list()
    expect(all.records.map((r) => r.action)).toEqual(['login-failed', 'group.create', 'group.create', 'group.create'])
    expect(all.totalRecords).toBe(4)
    expect((await list({ action: 'group.create' })).records.map((r) => r.target.split(' ')[2])).toEqual(['gamma', 'beta', 'alpha'])
    expect((await list({ uname: 'MALLORY' })).records.map((r) => r.action)).toEqual(['login-failed'])
    expect((await list({ text: 'BET' })).records.map((r) => r.target)).toEqual([expect.stringMatching(/ beta$/)])
    expect((await list({ text: '%' })).records).toEqual([])
    const page = await list({ action: 'group.create', results: 2, startindex: 1 })
    expect(page).toMatchObject({ recordsReturned: 2, pageSize: 2, totalRecords: 3, startIndex: 1 })
    expect(page.records.map((r) => r.target.split(' ')[2])).toEqual(['beta', 'alpha'])
    expect((await list({ results: 5000 })).pageSize).toBe(1000)
    const at = all.records[0].at
    expect((await list({ datefrom: at + 1 })).records).toEqual([])
    expect((await list({ dateto: at - 1 })).records.some((r) => r.at >= at)).toBe(false)
    expect((await list({ datefrom: at, dateto: at })).totalRecords).toBeGreaterThan(0)
    expect((await admin.get('/api/2/admin/audit/list', { datefrom: 'yesterday' })).status).toBe(400)
  })

  it('exports CSV, each field quoted as RFC 4180 needs and formulas defused', async () => {
    await post('admin/groups/create', { name: 'a,"b"' })
    await post('admin/groups/create', { name: '=cmd' })
    const res = await admin.get('/api/2/admin/audit/export', { action: 'group.create' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"')
    const lines = res.text.split('\r\n')
    expect(lines[0]).toBe('id,at,time,userId,uname,address,action,target,detail')
    expect(lines).toHaveLength(4)
    expect(lines[1]).toMatch(/^\d+,\d+,\d{4}-\d\d-\d\dT[^,]+Z,\d+,admin,127\.0\.0\.1,group\.create,group \d+ =cmd,$/)
    expect(lines[2]).toMatch(/,group\.create,"group \d+ a,""b""",$/)
    expect(lines[3]).toBe('')
  })

  it('refuses other users with a 403', async () => {
    addUser(server.store, { uname: 'viewer', password: 'viewer-password', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewer-password')
    expect((await viewer.get('/api/2/admin/audit/list')).status).toBe(403)
    expect((await viewer.get('/api/2/admin/audit/export')).status).toBe(403)
  })
})
