// admin/hosts/list|get|update|delete over real HTTP, with hosts created by real collector posts.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/server/auth/secret-box'
import { loginAs, PREFIXES, type ApiClient, type Params } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

const AGENT_A = 'a0000000000000000000000000000001'
const AGENT_B = 'b0000000000000000000000000000002'
const AGENT_C = 'c0000000000000000000000000000003'

let server: TestServer
let admin: ApiClient

serverForEachTest((started) => {
  ;({ server, admin } = started)
})

const post = (agentId: string, hostname: string, name = '02-status-heartbeat') => server.collect(asAgent(fixture(name), agentId, hostname))

function hostRow(id: number) {
  return server.store.hosts.findById(id)
}

function count(sql: string, ...args: unknown[]): number {
  return (server.store.sql.plain.prepare(sql).get(...args) as { n: number }).n
}

/** The arguments of an update that changes nothing but what `extra` says. */
function updateArgs(id: number, extra: Params = {}): Params {
  const h = hostRow(id)!
  return { id, hostname: h.hostname, agentuser: h.agent_user, agentpassword: '', ...extra }
}

describe('admin/hosts/list', () => {
  it('lists every host under each prefix; api/2 and legacy add the inactive count', async () => {
    const a = await server.addHost(AGENT_A, 'alpha')
    const b = await server.addHost(AGENT_B, 'bravo')
    await post(AGENT_B, 'bravo', '05-event-monit-stopped')
    const records = [
      { id: a, hostname: 'alpha', ipaddr: '127.0.0.1', description: '', agentversion: '5.33.0', monitversion: '5.33.0', status: 'Active' },
      { id: b, hostname: 'bravo', ipaddr: '127.0.0.1', description: '', agentversion: '5.33.0', monitversion: '5.33.0', status: 'Inactive' }
    ]
    expect((await admin.get('/api/1/admin/hosts/list')).json).toStrictEqual({ totalRecords: 2, records })
    for (const prefix of ['', '/api/2']) {
      const res = await admin.get(`${prefix}/admin/hosts/list`)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.json).toStrictEqual({ totalRecords: 2, inactive: 1, records })
    }
  })

  it('shows ipaddrout when defined, the label of an ignored host, and counts silent hosts as inactive', async () => {
    const a = await server.addHost(AGENT_A, 'alpha')
    const b = await server.addHost(AGENT_B, 'bravo')
    await server.addHost(AGENT_C, 'charlie')
    expect((await admin.post('/api/2/admin/hosts/update', updateArgs(a, { ipaddrout: '10.2.2.2', status: 2 }))).status).toBe(200)
    server.store.hosts.update(b, { heartbeat: 0, inactive_since: 1 })
    const list = (await admin.get('/api/2/admin/hosts/list')).json as { inactive: number; records: { ipaddr: string; status: string }[] }
    expect(list.inactive).toBe(1)
    expect(list.records.map((r) => [r.ipaddr, r.status])).toEqual([
      ['10.2.2.2', 'Ignored'],
      ['127.0.0.1', 'Active'],
      ['127.0.0.1', 'Active']
    ])
  })

  it('answers an empty list before any agent reported', async () => {
    expect((await admin.get('/api/2/admin/hosts/list')).json).toStrictEqual({ totalRecords: 0, inactive: 0, records: [] })
  })
})

describe('admin/hosts/get', () => {
  it('returns the administration record, never the agent password; api/1 has no defaultskew', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const record = {
      id,
      hostname: 'alpha',
      keepname: 0,
      ipaddrin: '127.0.0.1',
      ipaddrout: '',
      portin: 2812,
      portout: -1,
      sslin: 0,
      sslout: -1,
      agentid: AGENT_A,
      agentuser: 'admin',
      agentpassword: '',
      description: '',
      status: 0,
      skew: 3,
      poll: 5,
      lastmodified: hostRow(id)!.last_modified
    }
    expect((await admin.get('/api/1/admin/hosts/get', { id })).json).toStrictEqual(record)
    // Ours beyond api/1: what the agent reports and where its messages come from (call-back-pin.test.ts).
    const reported = { reportedipaddr: '127.0.0.1', reportedport: 2812, reportedssl: 0, sourceipaddr: '127.0.0.1', lastsourceipaddr: '' }
    // And the agent's pinned TLS certificate (agent-tls.test.ts): none for an agent never called over TLS.
    const certificate = { agentcert: '', agentcertseen: '' }
    for (const prefix of ['', '/api/2']) {
      expect((await admin.get(`${prefix}/admin/hosts/get`, { id })).json).toStrictEqual({
        ...record,
        defaultskew: 3,
        credentialspinned: 0,
        ...reported,
        ...certificate
      })
    }
    expect(JSON.stringify((await admin.get('/api/2/admin/hosts/get', { id })).json)).not.toContain('adminpw')
  })

  it('answers 404 for an unknown id and 400 naming a missing or malformed id', async () => {
    for (const prefix of PREFIXES) {
      expect(await admin.get(`${prefix}/admin/hosts/get`, { id: 7 })).toMatchObject({ status: 404, json: { error: 'no host with id 7' } })
      expect(await admin.get(`${prefix}/admin/hosts/get`)).toMatchObject({
        status: 400,
        json: { error: "invalid argument 'id': is required" }
      })
      expect(await admin.get(`${prefix}/admin/hosts/get`, { id: 'x' })).toMatchObject({
        status: 400,
        json: { error: expect.stringContaining("'id'") }
      })
    }
  })
})

describe('admin/hosts/update', () => {
  it('changes every editable field and answers the updated record', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const res = await admin.post('/api/2/admin/hosts/update', {
      id,
      hostname: 'renamed',
      keepname: 1,
      description: 'application server',
      status: 0,
      ipaddrout: 'agent.example.org',
      portout: 2900,
      sslout: 1,
      agentuser: 'operator',
      agentpassword: 'n3w secret',
      skew: 5
    })
    expect(res.status).toBe(200)
    const updated = {
      id,
      hostname: 'renamed',
      keepname: 1,
      ipaddrin: '127.0.0.1',
      ipaddrout: 'agent.example.org',
      portin: 2812,
      portout: 2900,
      sslin: 0,
      sslout: 1,
      agentid: AGENT_A,
      agentuser: 'operator',
      agentpassword: '',
      description: 'application server',
      status: 0,
      skew: 5,
      defaultskew: 3,
      poll: 5,
      lastmodified: hostRow(id)!.last_modified,
      credentialspinned: 1,
      reportedipaddr: '127.0.0.1',
      reportedport: 2812,
      reportedssl: 0,
      sourceipaddr: '127.0.0.1',
      lastsourceipaddr: '',
      agentcert: '',
      agentcertseen: ''
    }
    expect(res.json).toStrictEqual(updated)
    expect((await admin.get('/api/2/admin/hosts/get', { id })).json).toStrictEqual(updated)
    const {
      defaultskew: _absentInV1,
      credentialspinned: _c,
      reportedipaddr: _a,
      reportedport: _p,
      reportedssl: _s,
      sourceipaddr: _k,
      lastsourceipaddr: _l,
      agentcert: _ac,
      agentcertseen: _as,
      ...v1
    } = updated
    expect((await admin.post('/api/1/admin/hosts/update', updateArgs(id))).json).toStrictEqual(v1)
  })

  it('stores a new agent password encrypted, keeps it when sent empty, and pins the credentials', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const secrets = SecretBox.fromKeyFile(join(server.dataDir, 'secret.key'))
    expect(hostRow(id)).toMatchObject({ agent_user: 'admin', credentials_pinned: 0 })

    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { agentpassword: 'an0ther' }))
    const sealed = hostRow(id)!.agent_password
    expect(sealed).not.toContain('an0ther')
    expect(secrets.open(sealed)).toBe('an0ther')
    expect(hostRow(id)!.credentials_pinned).toBe(1)

    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { agentuser: 'operator', agentpassword: '' }))
    expect(hostRow(id)!.agent_user).toBe('operator')
    expect(secrets.open(hostRow(id)!.agent_password)).toBe('an0ther')

    // The agent still reports admin/adminpw: pinned credentials are no longer overwritten.
    await post(AGENT_A, 'alpha')
    expect(hostRow(id)!.agent_user).toBe('operator')
    expect(secrets.open(hostRow(id)!.agent_password)).toBe('an0ther')
  })

  it('leaves the agent credentials unpinned when they are sent back unchanged', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { agentpassword: 'adminpw', description: 'x' }))
    expect(hostRow(id)).toMatchObject({ description: 'x', credentials_pinned: 0 })
  })

  it('accepts monituser and monitpassword, the names existing clients send', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const res = await admin.post('/admin/hosts/update', { id, hostname: 'alpha', monituser: 'm', monitpassword: 'mpw' })
    expect(res).toMatchObject({ status: 200, json: { agentuser: 'm', agentpassword: '' } })
    expect(SecretBox.fromKeyFile(join(server.dataDir, 'secret.key')).open(hostRow(id)!.agent_password)).toBe('mpw')
  })

  it('keepname=1 keeps the name through the next collector post; keepname=0 takes the agent name again', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { hostname: 'mine', keepname: 1 }))
    await post(AGENT_A, 'alpha')
    expect(hostRow(id)!.hostname).toBe('mine')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { keepname: 0 }))
    await post(AGENT_A, 'alpha')
    expect(hostRow(id)!.hostname).toBe('alpha')
  })

  it('status Ignored suppresses the events the agent posts; Active lets them in again', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { status: 2 }))
    expect(hostRow(id)).toMatchObject({ status: 2, heartbeat_deadline_ms: null, status_text: 'Ignored' })
    await post(AGENT_A, 'alpha', '03-event-process-not-running')
    expect(count('SELECT COUNT(*) AS n FROM event WHERE host_id = ?', id)).toBe(0)
    expect(hostRow(id)!.status).toBe(2)

    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { status: 0 }))
    expect(hostRow(id)).toMatchObject({ status: 0, inactive_since: null, heartbeat_deadline_ms: expect.any(Number) })
    await post(AGENT_A, 'alpha', '03-event-process-not-running')
    expect(count('SELECT COUNT(*) AS n FROM event WHERE host_id = ?', id)).toBe(1)
  })

  it('status Inactive marks the host inactive from now and stops watching its heartbeat; Active clears it', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const reporting = hostRow(id)!
    const before = Math.floor(Date.now() / 1000)
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { status: 1 }))
    const inactive = hostRow(id)!
    expect(inactive).toMatchObject({ status: 1, heartbeat_deadline_ms: null, led: 3, status_text: 'Monit is not running' })
    expect(inactive.inactive_since).toBeGreaterThanOrEqual(before)

    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { status: 0 }))
    expect(hostRow(id)).toMatchObject({ status: 0, inactive_since: null, led: reporting.led, status_text: reporting.status_text })
  })

  it('a new skew moves the running heartbeat deadline', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const lastMs = hostRow(id)!.last_modified * 1000
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { skew: 10 }))
    expect(hostRow(id)).toMatchObject({ skew: 10, heartbeat_deadline_ms: lastMs + 10 * 5 * 1000 })
  })

  it('answers 400 naming the argument for each invalid value, and 404 for an unknown host', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const invalid: [Params, string][] = [
      [{ hostname: '' }, 'hostname'],
      [{ keepname: 2 }, 'keepname'],
      [{ status: 3 }, 'status'],
      [{ status: 'x' }, 'status'],
      [{ portout: 0 }, 'portout'],
      [{ portout: 65536 }, 'portout'],
      [{ sslout: 2 }, 'sslout'],
      [{ skew: 0 }, 'skew'],
      [{ ipaddrout: 'no spaces allowed' }, 'ipaddrout'],
      [{ id: 'seven' }, 'id']
    ]
    for (const [args, name] of invalid) {
      const res = await admin.post('/api/2/admin/hosts/update', updateArgs(id, args))
      expect(res.status, JSON.stringify(args)).toBe(400)
      expect((res.json as { error: string }).error).toMatch(new RegExp(`^invalid argument '${name}': `))
    }
    for (const missing of ['id', 'hostname', 'agentuser', 'agentpassword']) {
      const args = updateArgs(id)
      delete args[missing]
      expect(await admin.post('/api/2/admin/hosts/update', args)).toMatchObject({
        status: 400,
        json: { error: `invalid argument '${missing}': is required` }
      })
    }
    expect(await admin.post('/api/2/admin/hosts/update', updateArgs(id, { id: 999 }))).toMatchObject({
      status: 404,
      json: { error: 'no host with id 999' }
    })
    expect(hostRow(id)).toMatchObject({ hostname: 'alpha', status: 0, port_out: -1 })
  })

  it('accepts the unset values of the optional overrides', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { ipaddrout: '::1', portout: 1, sslout: 0 }))
    const res = await admin.post('/api/2/admin/hosts/update', updateArgs(id, { ipaddrout: '', portout: -1, sslout: -1 }))
    expect(res.json).toMatchObject({ ipaddrout: '', portout: -1, sslout: -1 })
  })
})

describe('admin/hosts/delete', () => {
  it('deletes a host by id with everything recorded for it', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const other = await server.addHost(AGENT_B, 'bravo')
    await post(AGENT_A, 'alpha', '03-event-process-not-running')
    server.store.sql.plain.prepare('INSERT INTO host_group (id, name) VALUES (1, ?)').run('g')
    server.store.sql.plain.prepare('INSERT INTO host_group_member (group_id, host_id) VALUES (1, ?), (1, ?)').run(id, other)
    server.store.intervals.open(id, null, 1)
    expect(count('SELECT COUNT(*) AS n FROM event WHERE host_id = ?', id)).toBe(1)

    for (const prefix of PREFIXES) {
      expect(await admin.post(`${prefix}/admin/hosts/delete`, { id: 999 })).toMatchObject({
        status: 404,
        json: { error: 'no host with id 999' }
      })
    }
    expect(await admin.post('/api/2/admin/hosts/delete', { id })).toMatchObject({ status: 200, json: {} })
    for (const table of ['service', 'service_group', 'event', 'event_state', 'state_interval', 'host_group_member']) {
      expect(count(`SELECT COUNT(*) AS n FROM ${table} WHERE host_id = ?`, id), table).toBe(0)
    }
    expect(count('SELECT COUNT(*) AS n FROM statistic WHERE service_id NOT IN (SELECT id FROM service)')).toBe(0)
    expect(count('SELECT COUNT(*) AS n FROM host WHERE id = ?', id)).toBe(0)
    expect(count('SELECT COUNT(*) AS n FROM service WHERE host_id = ?', other)).toBeGreaterThan(0)
    expect(count('SELECT COUNT(*) AS n FROM host_group_member WHERE host_id = ?', other)).toBe(1)
  })

  it('a role row that named only the deleted host goes with it instead of widening to every host', async () => {
    const a = await server.addHost(AGENT_A, 'alpha')
    const b = await server.addHost(AGENT_B, 'bravo')
    const db = server.store.sql.plain
    db.prepare("INSERT INTO role (id, name, admin, active) VALUES (10, 'viewers', 0, 1)").run()
    db.prepare('INSERT INTO role_row (id, role_id, permission, position) VALUES (10, 10, 2, 0), (11, 10, 2, 1)').run()
    db.prepare('INSERT INTO role_row_host VALUES (10, ?), (11, ?), (11, ?)').run(a, a, b)
    const generation = server.store.users.generation

    await admin.post('/api/2/admin/hosts/delete', { id: a })
    expect(db.prepare('SELECT id FROM role_row WHERE role_id = 10').all()).toEqual([{ id: 11 }])
    expect(server.store.users.generation).toBeGreaterThan(generation)
  })

  it('deletes by inactivity the hosts stopped or silent for at least that many seconds', async () => {
    const stopped = await server.addHost(AGENT_A, 'stopped')
    await post(AGENT_A, 'stopped', '05-event-monit-stopped')
    const active = await server.addHost(AGENT_B, 'active')
    const silent = await server.addHost(AGENT_C, 'silent')
    const now = Math.floor(Date.now() / 1000)
    server.store.hosts.update(silent, { heartbeat: 0, inactive_since: now - 3600 })
    expect(hostRow(stopped)).toMatchObject({ status: 1, inactive_since: expect.any(Number) })

    expect(await admin.post('/api/2/admin/hosts/delete', { inactive: 600 })).toMatchObject({ status: 200, json: { deleted: 1 } })
    expect(hostRow(silent)).toBeUndefined()
    expect(hostRow(stopped)).toBeDefined()

    expect((await admin.post('/api/1/admin/hosts/delete', { inactive: 0 })).json).toStrictEqual({ deleted: 1 })
    expect(hostRow(stopped)).toBeUndefined()
    expect((await admin.post('/admin/hosts/delete', { inactive: 0 })).json).toStrictEqual({ deleted: 0 })
    expect(hostRow(active)).toBeDefined()
  })

  it('does not count a reporting Ignored host as inactive', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    await admin.post('/api/2/admin/hosts/update', updateArgs(id, { status: 2 }))
    server.store.hosts.update(id, { inactive_since: 1 })
    expect((await admin.post('/api/2/admin/hosts/delete', { inactive: 0 })).json).toStrictEqual({ deleted: 0 })
  })

  it('api/2 needs exactly one of id or inactive; api/1 and legacy take either form', async () => {
    const a = await server.addHost(AGENT_A, 'alpha')
    const exactlyOne = { status: 400, json: { error: "invalid argument 'id': give exactly one of id or inactive" } }
    expect(await admin.post('/api/2/admin/hosts/delete', {})).toMatchObject(exactlyOne)
    expect(await admin.post('/api/2/admin/hosts/delete', { id: a, inactive: 0 })).toMatchObject(exactlyOne)
    for (const prefix of ['', '/api/1']) {
      expect(await admin.post(`${prefix}/admin/hosts/delete`, {})).toMatchObject({
        status: 400,
        json: { error: expect.stringContaining("'id'") }
      })
    }
    expect(await admin.post('/api/2/admin/hosts/delete', { inactive: -1 })).toMatchObject({
      status: 400,
      json: { error: expect.stringContaining("'inactive'") }
    })
    expect(await admin.post('/api/1/admin/hosts/delete', { id: a, inactive: 0 })).toMatchObject({ status: 200, json: {} })
    expect(hostRow(a)).toBeUndefined()
  })
})

describe('admin/hosts access rules', () => {
  const reads = ['admin/hosts/list', 'admin/hosts/get']
  const mutations = ['admin/hosts/update', 'admin/hosts/delete']

  it('answers 405 with Allow to GET on a mutation, under every prefix', async () => {
    for (const prefix of PREFIXES) {
      for (const path of mutations) {
        const res = await admin.get(`${prefix}/${path}`, { id: 1 })
        expect(res.status, path).toBe(405)
        expect(res.headers.allow).toBe('POST')
        expect(res.json).toMatchObject({ error: expect.any(String) })
      }
    }
  })

  it('refuses every endpoint to a user who is not an administrator', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    for (const prefix of PREFIXES) {
      for (const path of reads) expect((await viewer.get(`${prefix}/${path}`, { id })).status, path).toBe(403)
      for (const path of mutations) expect((await viewer.post(`${prefix}/${path}`, updateArgs(id))).status, path).toBe(403)
    }
    expect(hostRow(id)).toBeDefined()
  })

  it('with CSRF protection on, a mutation needs the token, as header or parameter', async () => {
    const id = await server.addHost(AGENT_A, 'alpha')
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const token = await guarded.csrfToken()
    expect(await guarded.post('/api/2/admin/hosts/update', updateArgs(id, { description: 'x' }))).toMatchObject({
      status: 403,
      json: { error: 'Invalid CSRF token' }
    })
    expect(hostRow(id)!.description).toBe('')
    expect((await guarded.post('/api/2/admin/hosts/update', updateArgs(id, { description: 'x' }), { CSRFToken: token })).status).toBe(200)
    expect((await guarded.post('/api/1/admin/hosts/update', updateArgs(id, { description: 'y', CSRFToken: token }))).status).toBe(200)
    expect(hostRow(id)!.description).toBe('y')
    expect((await guarded.get('/api/2/admin/hosts/list')).status).toBe(200)
    expect((await guarded.post('/api/2/admin/hosts/delete', { id })).status).toBe(403)
    expect((await guarded.post('/api/2/admin/hosts/delete', { id }, { CSRFToken: token })).status).toBe(200)
  })
})
