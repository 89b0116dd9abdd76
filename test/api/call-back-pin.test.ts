// The collector account cannot redirect call-backs (issue: anyone with the shared collector password could
// post a message for a known agent id naming their own <httpd>, and the next service action would send
// the administrator's pinned credentials there). Once credentials are pinned, the call-back and the known
// source address stay until an administrator accepts what the agent reports; the difference is shown on
// the host and said in the log. An agent whose credentials are not pinned is followed as before.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminHost } from '../../src/shared/api/hosts'
import type { ApiClient } from '../support/api-client'
import { capturedLog, type CapturedLog } from '../support/captured-log'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { hostOfAgent } from '../support/hosts'
import { COLLECTOR, startTestServer, type TestServer } from '../support/in-process-server'

const AGENT = 'cb01'.repeat(8)
let server: TestServer
let admin: ApiClient
let captured: CapturedLog
let listener: net.Server
let received = ''
let trapPort = 0

/** Fixture 02 as AGENT, with its <httpd> at `address:port`, posted from `from`. */
async function report(from: string, address: string, port: number): Promise<void> {
  const xml = asAgent(fixture('02-status-heartbeat'), AGENT, 'pinned-host')
    .toString('latin1')
    .replace('<httpd><address>127.0.0.1</address><port>2812</port>', `<httpd><address>${address}</address><port>${port}</port>`)
  const res = await postCollector(server.baseUrl, Buffer.from(xml, 'latin1'), {
    auth: `${COLLECTOR.user}:${COLLECTOR.password}`,
    localAddress: from
  })
  expect(res.status, res.body).toBe(200)
}
const get = async (id: number) => (await admin.get('/api/2/admin/hosts/get', { id })).json as AdminHost

beforeAll(async () => {
  captured = capturedLog()
  server = await startTestServer({ log: captured.log })
  admin = await server.loginAsAdmin()
  // The attacker's listener, on an address of its own.
  listener = net.createServer((socket) => socket.on('data', (chunk) => (received += chunk.toString('latin1'))))
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.3', resolve))
  trapPort = (listener.address() as net.AddressInfo).port
})

afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve))
  await server?.stopAndClean()
})

describe('a host whose credentials an administrator pinned', () => {
  it('keeps its call-back and known source against messages naming others, shows them, and takes them once accepted', async () => {
    await report('127.0.0.1', '127.0.0.1', 2812)
    const id = hostOfAgent(server.store, AGENT)!.id
    expect(await get(id)).toMatchObject({ ipaddrin: '127.0.0.1', portin: 2812, sourceipaddr: '127.0.0.1', credentialspinned: 0 })
    const pinned = await admin.post('/api/2/admin/hosts/update', {
      id,
      hostname: 'pinned-host',
      agentuser: 'admin',
      agentpassword: 'pinned-pw'
    })
    expect(pinned.status).toBe(200)

    // Someone with the collector password, from another machine, names their own listener.
    await report('127.0.0.2', '127.0.0.3', trapPort)
    expect(await get(id)).toMatchObject({
      credentialspinned: 1,
      ipaddrin: '127.0.0.1',
      portin: 2812,
      reportedipaddr: '127.0.0.3',
      reportedport: trapPort,
      sourceipaddr: '127.0.0.1',
      lastsourceipaddr: '127.0.0.2'
    })
    const warnings = captured.err().filter((line) => line.includes(AGENT))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      `a message came from 127.0.0.2, its messages are known to come from 127.0.0.1; it reports its httpd at 127.0.0.3:${trapPort}; ` +
        'its credentials are pinned, so it is still called at 127.0.0.1:2812'
    )
    // The same message again says nothing new.
    await report('127.0.0.2', '127.0.0.3', trapPort)
    expect(captured.err().filter((line) => line.includes(AGENT))).toHaveLength(1)

    // A service action goes where the host was pinned (nobody listens there here), not to the listener.
    const action = await admin.post('/api/2/admin/hosts/action', { id, action: 'stop', service: 'sleeper' })
    expect(action.status).toBe(400)
    expect((action.json as { error: string }).error).toMatch(/127\.0\.0\.1:2812/)
    expect(received).toBe('')

    // An administrator who expects the move accepts it.
    const accepted = await admin.post('/api/2/admin/hosts/update', {
      id,
      hostname: 'pinned-host',
      agentuser: 'admin',
      agentpassword: '',
      acceptreported: 1
    })
    expect(accepted.status).toBe(200)
    expect(await get(id)).toMatchObject({ ipaddrin: '127.0.0.3', portin: trapPort, sourceipaddr: '127.0.0.2', lastsourceipaddr: '' })
    await admin.post('/api/2/admin/hosts/action', { id, action: 'stop', service: 'sleeper' })
    expect(received).toContain('Authorization: Basic ')
  })
})

describe('a host whose credentials come from its agent', () => {
  it('follows the agent: its reported httpd is the call-back, its latest source the known one', async () => {
    const agent = 'cb02'.repeat(8)
    const post = (from: string, port: number) =>
      postCollector(
        server.baseUrl,
        Buffer.from(
          asAgent(fixture('02-status-heartbeat'), agent, 'free-host')
            .toString('latin1')
            .replace('<port>2812</port>', `<port>${port}</port>`),
          'latin1'
        ),
        { auth: `${COLLECTOR.user}:${COLLECTOR.password}`, localAddress: from }
      )
    expect((await post('127.0.0.1', 2812)).status).toBe(200)
    expect((await post('127.0.0.4', 2813)).status).toBe(200)
    const id = hostOfAgent(server.store, agent)!.id
    expect(await get(id)).toMatchObject({
      credentialspinned: 0,
      ipaddrin: '127.0.0.1',
      portin: 2813,
      sourceipaddr: '127.0.0.4',
      lastsourceipaddr: ''
    })
    expect(
      captured.err().some((line) => line.includes(agent) && line.includes('messages now come from 127.0.0.4 (were from 127.0.0.1)'))
    ).toBe(true)
  })
})
