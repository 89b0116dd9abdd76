// Call-backs to an agent over TLS verify its certificate (issue 26): a real Monit 5.33 agent whose httpd
// runs `with ssl` (a self-signed pemfile made by openssl) is pinned on the first call (trust on first
// use). Another certificate, be it a man in the middle at the call-back address or the agent restarted
// with a new pemfile, is refused before the credentials are sent, until an administrator accepts it.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminHost } from '../../src/shared/api/hosts'
import type { ApiClient } from '../support/api-client'
import { selfSigned, type SelfSigned } from '../support/certificates'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { tlsRecorder, type TlsRecorder } from '../support/tls-recorder'
import { waitFor } from '../support/wait'

const ACTION_EVENT = 131072

let server: TestServer
let fleet: AgentFleet
let agent: RunningAgent
let admin: ApiClient
let hostId: number
let firstCert: SelfSigned
let newCert: SelfSigned
let intruder: TlsRecorder

const hostRow = () =>
  server.store.sql.all(
    server.store.db
      .selectFrom('host')
      .select(['id', 'port_in', 'ssl_in', 'agent_cert_sha256', 'agent_cert_seen_sha256'])
      .where('agent_id', '=', agent.id)
  )[0]
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
    )
    .map((e) => e.message)
const action = (what: string) => admin.post('/api/2/admin/hosts/action', { id: hostId, action: what, service: 'sleeper' })
const update = (params: Record<string, string | number>) =>
  admin.post('/api/2/admin/hosts/update', { id: hostId, hostname: agent.name, agentuser: 'admin', agentpassword: '', ...params })
const refusal = (presented: SelfSigned, pinned: SelfSigned, port: number) =>
  `the agent at 127.0.0.1:${port} presented another certificate (SHA-256 ${presented.sha256}) than the one pinned (SHA-256 ${pinned.sha256}): ` +
  'nothing was sent to it; if the agent got a new certificate, an administrator must accept it in the host editor'

beforeAll(async () => {
  firstCert = selfSigned('agent1')
  newCert = selfSigned('agent1')
  intruder = await tlsRecorder(newCert)
  server = await startTestServer()
  fleet = await startAgents({
    collectorUrl: `http://monit:collect0r@127.0.0.1:${server.port}/collector`,
    count: 1,
    httpdSsl: { pemfile: firstCert.pemfile },
    // The sleeper stays stopped after an agent restart, so that only our start action starts it.
    sleeperOnFailure: 'alert'
  })
  agent = fleet.agents[0]
  hostId = (await waitFor('the agent to register with its TLS httpd', () => hostRow()?.ssl_in === 1 && hostRow(), 10_000)).id
  await fleet.startSleeper(agent)
  await waitFor('sleeper to run and be monitored', () => fleet.sleeperPid(agent) !== undefined && sleeper()?.monitor === 1, 10_000)
  admin = await server.loginAsAdmin()
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  await intruder?.close()
  await server?.stopAndClean()
})

describe("call-backs over TLS pin the agent's certificate", () => {
  it('a service action over TLS pins the certificate the agent presented on first use', async () => {
    expect(hostRow().agent_cert_sha256).toBe('')
    const res = await action('stop')
    expect([res.status, res.json]).toEqual([200, {}])
    await waitFor('"stop action done"', () => actionEvents().includes('stop action done'), 8000)
    expect(hostRow()).toMatchObject({ agent_cert_sha256: firstCert.sha256, agent_cert_seen_sha256: '' })
    const shown = (await admin.get('/api/2/admin/hosts/get', { id: hostId })).json as AdminHost
    expect(shown).toMatchObject({ agentcert: firstCert.sha256, agentcertseen: '' })
    expect((await admin.get('/api/1/admin/hosts/get', { id: hostId })).json).not.toHaveProperty('agentcert')
  })

  it('refuses another certificate at the call-back address without sending it the credentials', async () => {
    expect((await update({ ipaddrout: '127.0.0.1', portout: intruder.port, sslout: 1 })).status).toBe(200)
    try {
      const res = await action('start')
      expect([res.status, res.json]).toEqual([400, { error: refusal(newCert, firstCert, intruder.port) }])
      expect(intruder.connections).toHaveLength(1)
      await intruder.connections[0].closed
      expect(intruder.connections[0].received).toBe('')
      expect(hostRow()).toMatchObject({ agent_cert_sha256: firstCert.sha256, agent_cert_seen_sha256: newCert.sha256 })
      // The connection test of the host's address is held to the pin too: red, and still nothing sent.
      const tested = await admin.post('/api/2/admin/hosts/test', { id: hostId, ipaddr: '127.0.0.1', port: intruder.port, ssl: 1 })
      expect(tested.json).toEqual({ status: 'red', description: refusal(newCert, firstCert, intruder.port) })
      await intruder.connections[1].closed
      expect(intruder.connections[1].received).toBe('')
    } finally {
      expect((await update({ ipaddrout: '', portout: -1, sslout: -1 })).status).toBe(200)
    }
  })

  it('refuses the agent restarted with a new certificate until an administrator accepts it', async () => {
    fs.copyFileSync(newCert.pemfile, firstCert.pemfile)
    await fleet.restart(agent)
    const refused = await action('start')
    expect([refused.status, refused.json]).toEqual([400, { error: refusal(newCert, firstCert, agent.httpdPort) }])
    expect(fleet.sleeperPid(agent)).toBeUndefined()
    // A test naming the address with typed credentials (the M/Monit form) reports the certificate and pins nothing.
    const tested = await admin.get('/api/2/admin/hosts/test', {
      ipaddr: '127.0.0.1',
      port: agent.httpdPort,
      ssl: 1,
      agentuser: 'admin',
      agentpassword: 'adminpw'
    })
    expect(tested.json).toEqual({
      status: 'green',
      description: `Connected to Monit at 127.0.0.1:${agent.httpdPort} (certificate SHA-256 ${newCert.sha256})`
    })
    expect(hostRow()).toMatchObject({ agent_cert_sha256: firstCert.sha256, agent_cert_seen_sha256: newCert.sha256 })

    const accepted = await update({ acceptcertificate: 1 })
    expect(accepted.status).toBe(200)
    expect(accepted.json).toMatchObject({ agentcert: newCert.sha256, agentcertseen: '' })
    const starts = () => actionEvents().filter((e) => e === 'start action done').length
    const before = starts()
    const res = await action('start')
    expect([res.status, res.json]).toEqual([200, {}])
    await waitFor('"start action done"', () => starts() > before, 8000)
    await waitFor('the sleeper started by the action', () => fleet.sleeperPid(agent), 5000)
  })

  it('accepting with no other certificate seen keeps the pin', async () => {
    expect((await update({ acceptcertificate: 1 })).json).toMatchObject({ agentcert: newCert.sha256, agentcertseen: '' })
  })
})
