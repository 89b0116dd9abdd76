// Service actions and the connection test against a real Monit 5.33 agent (1 s poll) reporting to the
// in-process server on loopback: the API call reaches the agent, and the outcome comes back as events.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../src/server/agent/client'
import { loginAs, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { waitFor } from '../support/wait'

const ACTION_EVENT = 131072

let server: TestServer
let fleet: AgentFleet
let agent: RunningAgent
let admin: ApiClient
let hostId: number

const hostRow = () => server.store.sql.all(server.store.db.selectFrom('host').select(['id', 'port_in']).where('agent_id', '=', agent.id))[0]
const sleeper = () =>
  server.store.sql.all(
    server.store.db.selectFrom('service').select(['id', 'monitor']).where('host_id', '=', hostId).where('name', '=', 'sleeper')
  )[0]
const actionEvents = () =>
  server.store.sql
    .all(
      server.store.db
        .selectFrom('event')
        .select(['message'])
        .where('host_id', '=', hostId)
        .where('service_name', '=', 'sleeper')
        .where('class', '=', ACTION_EVENT)
        .orderBy('collected_usec')
    )
    .map((e) => e.message)

async function deadPort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise((r) => probe.close(r))
  return port
}

beforeAll(async () => {
  server = await startTestServer()
  fleet = await startAgents({ collectorUrl: `http://monit:collect0r@127.0.0.1:${server.port}/collector`, count: 1 })
  agent = fleet.agents[0]
  hostId = (await waitFor('the agent to register', () => hostRow()?.port_in === agent.httpdPort && hostRow(), 10_000)).id
  await waitFor('sleeper to run and be monitored', () => fleet.sleeperPid(agent) !== undefined && sleeper()?.monitor === 1, 10_000)
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  await server?.stopAndClean()
})

describe('service actions through the API', () => {
  it('admin/hosts/action stops a service on the agent', async () => {
    const pid = fleet.sleeperPid(agent)
    const res = await admin.post('/api/2/admin/hosts/action', { id: hostId, action: 'stop', service: 'sleeper' })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({})
    await waitFor('"stop action done"', () => actionEvents().includes('stop action done'), 8000)
    await waitFor('sleeper unmonitored', () => sleeper().monitor === 0, 5000)
    expect(fleet.sleeperPid(agent)).toBeUndefined()
    expect(pid).toBeDefined()
    // The event is listed by the events report, as an M/Monit client would read it.
    const listed = await admin.get('/api/1/reports/events/list', { hostid: hostId, eventtype: 131072 })
    const records = (listed.json as { records: { servicename: string; event: string; eventtype: number }[] }).records
    expect(records).toContainEqual(expect.objectContaining({ servicename: 'sleeper', event: 'stop action done', eventtype: 2 }))
  })

  it('POST /api/2/action/service starts it again, by service id', async () => {
    const res = await admin.post('/api/2/action/service', { hostid: hostId, service: String(sleeper().id), action: 'start' })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({})
    await waitFor('"start action done"', () => actionEvents().includes('start action done'), 8000)
    await waitFor('a new sleeper pid', () => fleet.sleeperPid(agent), 5000)
  })

  it('rejects unknown hosts, services and actions before calling the agent', async () => {
    expect((await admin.post('/api/2/action/service', { hostid: 99999, service: 'sleeper', action: 'stop' })).status).toBe(404)
    const noService = await admin.post('/api/2/admin/hosts/action', { id: hostId, action: 'stop', service: 'nosuch' })
    expect(noService.status).toBe(404)
    expect(noService.json).toEqual({ error: `no service named "nosuch" on host ${hostId}` })
    expect((await admin.post('/api/2/action/service', { hostid: hostId, service: 'sleeper', action: 'alert' })).status).toBe(400)
  })

  it('answers 400 with the reason when the agent refuses', async () => {
    const update = (user: string, password: string) =>
      admin.post('/api/2/admin/hosts/update', { id: hostId, hostname: agent.name, agentuser: user, agentpassword: password })
    expect((await update('guest', 'guest')).status).toBe(200)
    try {
      const res = await admin.post('/api/2/admin/hosts/action', { id: hostId, action: 'stop', service: 'sleeper' })
      expect(res.status).toBe(400)
      expect(res.json).toEqual({
        error: expect.stringMatching(/^user 'guest' is read-only on the agent at 127\.0\.0\.1:\d+: You do not have sufficient privileges/)
      })
    } finally {
      expect((await update('admin', 'adminpw')).status).toBe(200)
    }
  })

  it('needs the service-actions permission on the host', async () => {
    // View (2) on every host, without service actions (4).
    const role = await admin.post('/api/2/admin/roles/create', {
      name: 'view only',
      admin: false,
      active: true,
      rolerowscount: 1,
      permission0: 2
    })
    expect(role.status).toBe(200)
    const roleid = (role.json as { id: number }).id
    const created = await admin.post('/api/2/admin/users/create', { uname: 'viewer', password: 'viewer-pw', fullname: 'Viewer', roleid })
    expect(created.status).toBe(200)
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    expect((await viewer.post('/api/2/admin/hosts/action', { id: hostId, action: 'stop', service: 'sleeper' })).status).toBe(403)
    expect((await viewer.post('/api/2/action/service', { hostid: hostId, action: 'stop', service: 'sleeper' })).status).toBe(403)
    expect((await viewer.post('/api/2/admin/hosts/test', { ipaddr: '127.0.0.1', port: agent.httpdPort, ssl: 0 })).status).toBe(403)
  })
})

describe('admin/hosts/test against the agent', () => {
  const test = (params: Record<string, string | number>) =>
    admin.get('/api/2/admin/hosts/test', { ipaddr: '127.0.0.1', port: agent.httpdPort, ssl: 0, ...params })

  it('is green with the agent credentials (agentuser or monituser)', async () => {
    const expected = { status: 'green', description: `Connected to Monit at 127.0.0.1:${agent.httpdPort}` }
    expect((await test({ agentuser: 'admin', agentpassword: 'adminpw' })).json).toEqual(expected)
    const v1 = await admin.post('/api/1/admin/hosts/test', {
      ipaddr: '127.0.0.1',
      port: agent.httpdPort,
      ssl: 0,
      monituser: 'admin',
      monitpassword: 'adminpw'
    })
    expect(v1.json).toEqual(expected)
  })

  it('is red with a wrong password', async () => {
    const res = await test({ agentuser: 'admin', agentpassword: 'wrong' })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ status: 'red', description: expect.stringMatching(/^bad credentials/) })
  })

  const testStored = (params: Record<string, string | number>, client = admin) =>
    client.post('/api/2/admin/hosts/test', { ipaddr: '127.0.0.1', port: agent.httpdPort, ssl: 0, ...params })
  const storeCredentials = async () => {
    const stored = await admin.post('/api/2/admin/hosts/update', {
      id: hostId,
      hostname: agent.name,
      agentuser: 'admin',
      agentpassword: 'adminpw'
    })
    expect(stored.status).toBe(200)
  }

  it("with the host's id, tests the stored credentials when no password is given (the console's untouched field)", async () => {
    await storeCredentials()
    const expected = { status: 'green', description: `Connected to Monit at 127.0.0.1:${agent.httpdPort}` }
    expect((await testStored({ id: hostId, agentuser: 'admin' })).json).toEqual(expected)
    expect((await testStored({ id: hostId, agentuser: 'admin', agentpassword: '' })).json).toEqual(expected)
    expect((await testStored({ id: hostId })).json).toEqual(expected)
    // A typed password is what is tested, stored or not, and may go by GET (the M/Monit form).
    const typed = await test({ id: hostId, agentuser: 'admin', agentpassword: 'wrong' })
    expect(typed.json).toEqual({ status: 'red', description: expect.stringMatching(/^bad credentials/) })
    // Without the id, an empty password stays an empty password (spec: all arguments given).
    expect((await test({ agentuser: 'admin' })).json).toEqual({ status: 'red', description: expect.stringMatching(/^bad credentials/) })
    expect(await testStored({ id: 99999, agentuser: 'admin' })).toMatchObject({ status: 404, json: { error: 'no host with id 99999' } })
  })

  it('never sends the stored password by GET, without the CSRF token, or to another address than the host', async () => {
    await storeCredentials()
    const listener = net.createServer((socket) => socket.on('data', (chunk) => (received += chunk.toString('latin1'))))
    let received = ''
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r))
    const elsewhere = (listener.address() as net.AddressInfo).port
    try {
      // A GET naming the host: what a link or an <img> on any page an administrator opens would send.
      const byGet = await test({ id: hostId, port: elsewhere })
      expect(byGet).toMatchObject({ status: 405, json: { error: 'admin/hosts/test accepts POST with these arguments' } })
      expect(byGet.headers.allow).toBe('POST')
      // Another address or port, or the same one without TLS when the host has it: the password must be typed.
      const other = await testStored({ id: hostId, port: elsewhere })
      expect(other.status).toBe(400)
      expect((other.json as { error: string }).error).toBe(
        `the stored agent password is only sent to host ${agent.name}'s own address (127.0.0.1:${agent.httpdPort}): type the password to test another address`
      )
      expect((await testStored({ id: hostId, ipaddr: 'localhost' })).status).toBe(400)
      // A session with CSRF protection on (the console's) needs the token.
      const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
      expect(await testStored({ id: hostId }, guarded)).toMatchObject({ status: 403, json: { error: 'Invalid CSRF token' } })
      const withToken = await testStored({ id: hostId, CSRFToken: await guarded.csrfToken() }, guarded)
      expect(withToken.json).toMatchObject({ status: 'green' })
      expect(received).toBe('')
    } finally {
      await new Promise((r) => listener.close(r))
    }
  })

  it('is red for a port nobody listens on', async () => {
    const res = await test({ port: await deadPort(), agentuser: 'admin', agentpassword: 'adminpw' })
    expect(res.json).toEqual({ status: 'red', description: expect.stringMatching(/^connection refused by 127\.0\.0\.1:\d+/) })
  })
})

describe('the client against the real agent', () => {
  const client = (user: string, password: string) =>
    new AgentClient({ host: '127.0.0.1', port: agent.httpdPort, ssl: false, user, password })

  it('reads the agent id', async () => {
    expect(await client('admin', 'adminpw').getId()).toBe(agent.id)
  })

  it('reads a fresh status, in the collector format, even as a read-only user', async () => {
    const status = await client('guest', 'guest').status()
    expect(status.agent.id).toBe(agent.id)
    expect(status.event).toBeUndefined()
    expect(status.services.map((s) => s.name)).toEqual(expect.arrayContaining(['sleeper', agent.name]))
  })

  it("classifies Monit's own refusals", async () => {
    await expect(client('guest', 'guest').doAction('stop', ['sleeper'])).rejects.toMatchObject({
      kind: 'read-only',
      message: expect.stringMatching(/You do not have sufficient privileges/)
    })
    await expect(client('admin', 'adminpw').doAction('stop', ['nosuch'])).rejects.toMatchObject({
      kind: 'agent',
      message: 'There is no service named "nosuch"'
    })
  })
})
