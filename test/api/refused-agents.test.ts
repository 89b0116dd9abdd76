// Agents the collector turns away are seen (issue 28): over real HTTP, each from its own loopback
// address, they are listed by admin/agents/refused/list with the likely cause, logged once, counted in
// /metrics, and cleared when the agent gets in or an administrator dismisses them (a CSRF-protected POST).
// Raw sockets send what no agent would: a body announced too large, bytes that are no Monit message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RefusedAgent, RefusedAgentsAnswer } from '../../src/shared/api/refused-agents'
import { MAX_REFUSED_AGENTS } from '../../src/server/collector/refused-agents'
import { MAX_PER_MINUTE } from '../../src/server/collector/refusal-log'
import { loginAs, type ApiClient } from '../support/api-client'
import { capturedLog, type CapturedLog } from '../support/captured-log'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { ADMIN, COLLECTOR, startTestServer, type TestServer } from '../support/in-process-server'
import { openRaw, requestHead } from '../support/raw-socket'
import { addUser, addUserWith } from '../support/users'
import { Permission } from '../../src/shared/codes'
import { LoginThrottle } from '../../src/server/auth/login-throttle'
import { newPasswordSync } from '../../src/server/auth/passwords'
import { startAgents } from '../support/monit-agents'
import { waitFor } from '../support/wait'

const WRONG = 'Wr0ngPassw0rd'
const RIGHT = `${COLLECTOR.user}:${COLLECTOR.password}`
const basic = (auth: string) => `Basic ${Buffer.from(auth).toString('base64')}`
const heartbeat = asAgent(fixture('02-status-heartbeat'), 'refusedagent0001', 'refused-host')

let server: TestServer
let logs: CapturedLog
let admin: ApiClient

// A clock of its own: the real agent's lock, if it retried five times, is made to end.
let throttleSec = 0
const throttle = new LoginThrottle({ now: () => throttleSec })

beforeAll(async () => {
  logs = capturedLog()
  server = await startTestServer({ log: logs.log, loginThrottle: throttle, collectorLimits: { maxBodyBytes: 64 * 1024 } })
  addUser(server.store, { uname: 'viewer', password: 'viewer-pw1', roleIds: [] })
  admin = await server.loginAsAdmin()
})
afterAll(() => server.stopAndClean())

const post = (from: string, auth: string | undefined, body: Buffer | string = heartbeat) =>
  postCollector(server.baseUrl, body, { auth, localAddress: from })
const refused = async (): Promise<RefusedAgentsAnswer> => {
  const res = await admin.get('/api/2/admin/agents/refused/list')
  expect(res.status).toBe(200)
  return res.json as RefusedAgentsAnswer
}
const from = async (address: string): Promise<Pick<RefusedAgent, 'uname' | 'reason' | 'count'>[]> =>
  (await refused()).records.filter((r) => r.address === address).map(({ uname, reason, count }) => ({ uname, reason, count }))
const refusedTotal = async (reason: string): Promise<number> => {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: basic(`${ADMIN.user}:${ADMIN.password}`) } })
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`overseer_collector_refused_total{reason="${reason}"} `))
  return Number(line!.split(' ')[1])
}
const warnings = (address: string) => logs.err().filter((line) => line.includes('collector: refused') && line.includes(` from ${address}`))

describe('an agent with a wrong password', () => {
  it('is listed with its cause and count, warned about once, counted in /metrics, and cleared once it gets in', async () => {
    const before = await refusedTotal('wrong_password')
    for (let i = 0; i < 3; i++) expect((await post('127.0.0.2', `${COLLECTOR.user}:${WRONG}`)).status).toBe(401)
    expect(await from('127.0.0.2')).toEqual([{ uname: 'monit', reason: 'wrong_password', count: 3 }])
    expect(await refusedTotal('wrong_password')).toBe(before + 3)
    expect(warnings('127.0.0.2')).toEqual([expect.stringMatching(/collector: refused user "monit" from 127\.0\.0\.2: wrong password/)])
    // The password tried is kept nowhere: not in the list, not in the log.
    expect(JSON.stringify(await refused())).not.toContain(WRONG)
    expect([...logs.out(), ...logs.err()].join('\n')).not.toContain(WRONG)

    expect((await post('127.0.0.2', RIGHT)).status).toBe(200)
    expect(await from('127.0.0.2')).toEqual([])
  })
})

describe('a real Monit agent with a wrong password', () => {
  it('is listed as it retries every cycle, and leaves the list once its password is the right one', async () => {
    const fleet = await startAgents({ collectorUrl: `http://${COLLECTOR.user}:${WRONG}@127.0.0.1:${server.port}/collector`, count: 1 })
    try {
      const entry = await waitFor(
        'the agent refused twice',
        async () => (await from('127.0.0.1')).find((r) => r.reason === 'wrong_password' && r.count >= 2),
        20_000
      )
      expect(entry.uname).toBe('monit')
      expect(warnings('127.0.0.1')).toHaveLength(1)
      // The collector account takes the password the agent sends: its next message is stored.
      const monit = server.store.users.findByName(COLLECTOR.user)!
      server.store.users.update(monit.id, { password: newPasswordSync(WRONG, COLLECTOR.user) })
      throttleSec += throttle.windowSec
      await waitFor('the agent let in', async () => (await from('127.0.0.1')).length === 0, 20_000)
    } finally {
      await fleet.shutdown()
      const monit = server.store.users.findByName(COLLECTOR.user)!
      server.store.users.update(monit.id, { password: newPasswordSync(COLLECTOR.password, COLLECTOR.user) })
    }
  })
})

describe('every likely cause', () => {
  it('unknown user, no credentials, no collector permission, locked out after repeated failures', async () => {
    expect((await post('127.0.0.3', 'nobody:whatever1')).status).toBe(401)
    expect((await post('127.0.0.4', undefined)).status).toBe(401)
    expect((await post('127.0.0.5', 'viewer:viewer-pw1')).status).toBe(403)
    for (let i = 0; i < 5; i++) await post('127.0.0.6', `${COLLECTOR.user}:${WRONG}`)
    expect((await post('127.0.0.6', RIGHT)).status).toBe(429)
    expect(await from('127.0.0.3')).toEqual([{ uname: 'nobody', reason: 'unknown_user', count: 1 }])
    expect(await from('127.0.0.4')).toEqual([{ uname: '', reason: 'no_credentials', count: 1 }])
    expect(await from('127.0.0.5')).toEqual([{ uname: 'viewer', reason: 'no_collector_permission', count: 1 }])
    expect(await from('127.0.0.6')).toEqual([
      { uname: 'monit', reason: 'locked_out', count: 1 },
      { uname: 'monit', reason: 'wrong_password', count: 5 }
    ])
  })

  it('a user who may collect for another host only', async () => {
    const other = await server.addHost('refusedagent0002', 'other-host')
    addUserWith(server.store, 'narrow', Permission.Collector, { hosts: [other] })
    expect((await post('127.0.0.8', 'narrow:narrow-secret')).status).toBe(403)
    expect(await from('127.0.0.8')).toEqual([{ uname: 'narrow', reason: 'host_not_permitted', count: 1 }])
  })
})

describe('messages refused for what they are', () => {
  it('a body announced too large and bytes that are no Monit message are listed, and stay after a stored message', async () => {
    const head = (headers: Record<string, string | number>) =>
      requestHead('POST', '/collector', { Authorization: basic(RIGHT), 'Content-Type': 'text/xml', Connection: 'close', ...headers })
    const send = async (bytes: string | Buffer) => {
      const raw = await openRaw(server.port, bytes, '127.0.0.7')
      await raw.closed
      return raw.received().split('\r\n')[0]
    }
    expect(await send(head({ 'Content-Length': 10_000_000 }))).toBe('HTTP/1.1 413 Payload Too Large')
    const garbage = 'this is not a Monit message'
    expect(await send(head({ 'Content-Length': garbage.length }) + garbage)).toBe('HTTP/1.1 400 Bad Request')
    expect(await send(head({ 'Content-Length': garbage.length, 'Content-Encoding': 'gzip' }) + garbage)).toBe('HTTP/1.1 400 Bad Request')
    expect((await post('127.0.0.7', RIGHT)).status).toBe(200)
    expect(await from('127.0.0.7')).toEqual([
      { uname: 'monit', reason: 'malformed', count: 2 },
      { uname: 'monit', reason: 'too_large', count: 1 }
    ])
    expect(warnings('127.0.0.7')).toHaveLength(2)
  })
})

describe('admin/agents/refused/dismiss', () => {
  it('removes an entry with a POST carrying the CSRF token, audited; not by GET, not without the token, not for viewers', async () => {
    await post('127.0.0.9', 'ghost:whatever1')
    const [entry] = (await refused()).records.filter((r) => r.address === '127.0.0.9')
    addUser(server.store, { uname: 'ops', password: 'ops-password', roleIds: [1] })
    const guarded = await loginAs(server.baseUrl, 'ops', 'ops-password', { csrf: 'on' })
    expect(await guarded.post('/api/2/admin/agents/refused/dismiss', { id: entry!.id })).toMatchObject({
      status: 403,
      json: { error: 'Invalid CSRF token' }
    })
    expect((await guarded.get('/api/2/admin/agents/refused/dismiss', { id: entry!.id })).status).toBe(405)
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewer-pw1')
    expect((await viewer.get('/api/2/admin/agents/refused/list')).status).toBe(403)
    expect((await viewer.post('/api/2/admin/agents/refused/dismiss', { id: entry!.id })).status).toBe(403)
    expect(await from('127.0.0.9')).toHaveLength(1)

    const token = await guarded.csrfToken()
    expect((await guarded.post('/api/2/admin/agents/refused/dismiss', { id: entry!.id }, { CSRFToken: token })).status).toBe(200)
    expect(await from('127.0.0.9')).toEqual([])
    expect(await guarded.post('/api/2/admin/agents/refused/dismiss', { id: entry!.id }, { CSRFToken: token })).toMatchObject({
      status: 404,
      json: { error: `no refused agent with id ${entry!.id}` }
    })
    expect(await admin.post('/api/2/admin/agents/refused/dismiss', { id: 'x' })).toMatchObject({ status: 400 })
    const audited = server.store.sql.rows<{ uname: string }>(`SELECT uname FROM audit_log WHERE action = 'refused-agent.dismiss'`)
    expect(audited).toEqual([{ uname: 'ops' }])
  })
})

describe('a neighbour trying names', () => {
  it('cannot grow the list past its bound; names are kept as sent, cut short', async () => {
    const hostile = `<img src=x onerror=alert(1)>${'x'.repeat(300)}`
    await post('127.0.0.10', `${hostile}:whatever1`)
    expect((await refused()).records.find((r) => r.address === '127.0.0.10')!.uname).toBe(hostile.slice(0, 64))
    const burstFrom = Date.now()
    for (let i = 0; i < MAX_REFUSED_AGENTS + 5; i++) await post('127.0.0.11', `guess${i}:whatever1`)
    const after = await refused()
    expect(after.records).toHaveLength(MAX_REFUSED_AGENTS)
    expect(after.dropped).toBeGreaterThanOrEqual(5)
    // A burst of names writes a bounded number of log lines: MAX_PER_MINUTE in each clock minute it spans
    // (one, or two on a slow machine).
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(burstFrom / 60_000) + 1
    expect(warnings('127.0.0.11').length).toBeLessThanOrEqual(MAX_PER_MINUTE * minutes)
    expect(warnings('127.0.0.11').length).toBeLessThan(MAX_REFUSED_AGENTS)
  })
})
