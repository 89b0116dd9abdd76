import fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Principals } from '../../../src/server/auth/principals'
import { ChangeFeed } from '../../../src/server/live/change-feed'
import { LiveStreams } from '../../../src/server/live/sse-route'
import { PostgresError } from '../../../src/server/store/postgres/sync-connection'
import { loginAs, type ApiClient } from '../../support/api-client'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { viewerOf } from '../../support/viewers'
import { dataOf, openSse, type SseFrame, type SseStream } from './sse-client'
import { hostOfAgent } from '../../support/hosts'

const AUTH = 'monit:collect0r'
let server: TestServer
let admin: ApiClient
beforeAll(async () => {
  server = await startTestServer({ watchdogIntervalMs: 50 })
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(() => server.stopAndClean())

const agentId = (n: number) => `${'0'.repeat(31)}${n}`.slice(-32).replace(/^0/, 'a')
const post = async (name: string, agent: number) => {
  const res = await postCollector(server.baseUrl, asAgent(fixture(name), agentId(agent)), { auth: AUTH })
  expect(res.status).toBe(200)
}
const hostIdOf = (agent: number) => hostOfAgent(server.store, agentId(agent))!.id
const live = (client: ApiClient, headers: Record<string, string> = {}, path = '/api/2/live') =>
  openSse(server.baseUrl, path, { Cookie: client.cookie!, ...headers })
const about = (hostId: number) => (f: SseFrame) => f.event !== 'ready' && f.event !== 'reset' && dataOf(f).hostId === hostId

describe('GET /api/2/live', () => {
  it('answers the login page, not a stream, without a session', async () => {
    const res = await openSse(server.baseUrl, '/api/2/live')
    await res.ended
    expect(res.status).toBe(200)
    expect(res.contentType).toBe('text/html')
    expect(res.text()).toContain('<form')
  })

  it('streams a posted fixture’s registration, LED change and event', async () => {
    const stream = await live(admin)
    expect(stream.status).toBe(200)
    expect(stream.contentType).toBe('text/event-stream')
    await stream.waitFor((f) => f.event === 'ready')
    await post('03-event-process-not-running', 1)
    const hostId = hostIdOf(1)
    const registered = await stream.waitFor((f) => f.event === 'host-registered')
    const changed = await stream.waitFor((f) => f.event === 'host-changed')
    const event = await stream.waitFor((f) => f.event === 'event')
    const service = await stream.waitFor((f) => f.event === 'service-changed' && dataOf(f).service === 'sleeper')
    expect(dataOf(registered)).toEqual({ kind: 'host-registered', hostId, hostname: 'host-000001' })
    expect(dataOf(changed)).toMatchObject({ hostId, hostname: 'host-000001', led: expect.any(Number), status: expect.any(String) })
    expect(dataOf(event)).toMatchObject({
      hostId,
      event: { id: expect.any(Number), service: 'sleeper', eventClass: 512, state: 1, message: 'process is not running' }
    })
    expect(dataOf(service)).toMatchObject({ hostId, led: expect.any(Number), status: expect.any(String) })
    expect(Number(event.id)).toBeGreaterThan(Number(registered.id))
    stream.close()
  })

  it('shows a viewer of host A the changes of A and nothing about B', async () => {
    await post('02-status-heartbeat', 11)
    await post('02-status-heartbeat', 12)
    const [a, b] = [hostIdOf(11), hostIdOf(12)]
    const viewer = await viewerOf(server, 'viewer-a', { hosts: [a] })
    const stream = await live(viewer)
    const everything = await live(admin)
    await Promise.all([stream.waitFor((f) => f.event === 'ready'), everything.waitFor((f) => f.event === 'ready')])
    await post('03-event-process-not-running', 12)
    await post('03-event-process-not-running', 11)
    await stream.waitFor((f) => f.event === 'event' && dataOf(f).hostId === a)
    // B's changes went out to the admin, and were published before A's: the viewer's stream, in publish
    // order, would have brought them before A's event.
    await everything.waitFor((f) => f.event === 'event' && dataOf(f).hostId === b)
    expect(stream.frames.filter(about(b))).toEqual([])
    expect(everything.frames.filter(about(b)).length).toBeGreaterThan(0)
    stream.close()
    everything.close()
  })

  it('replays what was missed after Last-Event-ID, and says reset when it is too old', async () => {
    const first = await live(admin, {}, '/live')
    const ready = await first.waitFor((f) => f.event === 'ready')
    first.close()
    await post('03-event-process-not-running', 21)
    const resumed = await live(admin, { 'Last-Event-ID': ready.id! })
    const registered = await resumed.waitFor((f) => f.event === 'host-registered')
    expect(dataOf(registered).hostId).toBe(hostIdOf(21))
    const again = await resumed.waitFor((f) => f.event === 'ready')
    expect(resumed.frames.indexOf(registered)).toBeLessThan(resumed.frames.indexOf(again))
    resumed.close()

    const byQuery = await live(admin, {}, `/api/1/live?lastEventId=${ready.id!}`)
    await byQuery.waitFor((f) => f.event === 'event' && dataOf(f).hostId === hostIdOf(21))
    byQuery.close()

    const stale = await live(admin, { 'Last-Event-ID': '1' })
    await stale.waitFor((f) => f.event === 'reset')
    expect(stale.frames.filter((f) => f.event === 'host-registered')).toEqual([])
    stale.close()
  })

  it('announces a dead heartbeat found by the watchdog', async () => {
    await post('02-status-heartbeat', 31)
    const hostId = hostIdOf(31)
    const stream = await live(admin)
    await stream.waitFor((f) => f.event === 'ready')
    // Make the deadline pass now instead of skew × poll seconds later.
    server.store.sql.plain.prepare('UPDATE host SET heartbeat_deadline_ms = 0 WHERE id = ?').run(hostId)
    const dead = await stream.waitFor((f) => f.event === 'heartbeat' && dataOf(f).hostId === hostId)
    expect(dataOf(dead)).toMatchObject({ alive: false, status: 'No report from Monit' })
    await stream.waitFor((f) => f.event === 'event' && dataOf(f).hostId === hostId)
    await post('02-status-heartbeat', 31)
    const back = await stream.waitFor((f) => f.event === 'heartbeat' && dataOf(f).hostId === hostId && dataOf(f).alive === true)
    expect(dataOf(back).alive).toBe(true)
    stream.close()
  })

  it('announces a host an administrator renamed or set to Ignored', async () => {
    await post('02-status-heartbeat', 42)
    const hostId = hostIdOf(42)
    const stream = await live(admin)
    await stream.waitFor((f) => f.event === 'ready')
    const res = await admin.post('/api/2/admin/hosts/update', {
      id: hostId,
      hostname: 'renamed-42',
      agentuser: 'admin',
      agentpassword: '',
      status: 2,
      CSRFToken: await admin.csrfToken()
    })
    expect(res.status).toBe(200)
    expect(dataOf(await stream.waitFor((f) => f.event === 'host-changed' && dataOf(f).hostId === hostId))).toEqual({
      kind: 'host-changed',
      hostId,
      hostname: 'renamed-42',
      led: 3,
      status: 'Ignored'
    })
    stream.close()
  })

  it('announces a host removed by an administrator', async () => {
    await post('02-status-heartbeat', 41)
    const hostId = hostIdOf(41)
    const viewer = await viewerOf(server, 'viewer-41', { hosts: [hostId] })
    const streams: SseStream[] = [await live(admin), await live(viewer)]
    await Promise.all(streams.map((s) => s.waitFor((f) => f.event === 'ready')))
    const res = await admin.post('/api/2/admin/hosts/delete', { id: hostId, CSRFToken: await admin.csrfToken() })
    expect(res.status).toBe(200)
    for (const s of streams) {
      expect(dataOf(await s.waitFor((f) => f.event === 'host-removed'))).toEqual({ kind: 'host-removed', hostId })
      s.close()
    }
  })
})

describe('shutdown', () => {
  it('ends open streams so that the server can stop', async () => {
    const own = await startTestServer()
    const client = await loginAs(own.baseUrl, 'admin', 'adminsecret')
    const stream = await openSse(own.baseUrl, '/api/2/live', { Cookie: client.cookie! })
    await stream.waitFor((f) => f.event === 'ready')
    // Closing waits for every open connection: a stream left open would hold it past the test's timeout.
    await own.stopAndClean()
    await stream.ended
  })
})

describe('a stream whose session or permissions cannot be read now (its database out of reach)', () => {
  const principal = { userId: 1, uname: 'admin', admin: true, everyHost: 0, perHost: new Map() }
  const outOfReach = () => {
    throw new PostgresError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')
  }

  async function streamServer(failing: { session: boolean; principals: boolean }) {
    const feed = new ChangeFeed()
    const streams = new LiveStreams({
      feed,
      principals: { of: () => (failing.principals ? outOfReach() : principal) } as unknown as Principals,
      loggedIn: () => (failing.session ? outOfReach() : true),
      keepAliveMs: 50
    })
    const app = fastify()
    app.get('/live', (request, reply) => streams.serve(request, reply, 1, principal, undefined))
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as { port: number }
    return { feed, app, baseUrl: `http://127.0.0.1:${port}` }
  }

  it('ends at the keep-alive that cannot check the session, and the process lives on', async () => {
    const failing = { session: false, principals: false }
    const { app, baseUrl } = await streamServer(failing)
    const stream = await openSse(baseUrl, '/live')
    await stream.waitFor((f) => f.event === 'ready')
    failing.session = true
    await stream.ended
    await app.close()
  })

  it('ends when a change cannot be judged, rather than drop the subscription and stay open', async () => {
    const failing = { session: false, principals: false }
    const { app, feed, baseUrl } = await streamServer(failing)
    const stream = await openSse(baseUrl, '/live')
    await stream.waitFor((f) => f.event === 'ready')
    failing.principals = true
    feed.publish({ kind: 'host-removed', hostId: 1 })
    await stream.ended
    expect(feed.subscribers).toBe(0)
    await app.close()
  })
})

describe('a server that is closing', () => {
  it('ends the open streams and answers a client reconnecting meanwhile 503, so the shutdown waits on no new stream', async () => {
    const principal = { userId: 1, uname: 'admin', admin: true, everyHost: 0, perHost: new Map() }
    const streams = new LiveStreams({
      feed: new ChangeFeed(),
      principals: { of: () => principal } as unknown as Principals,
      loggedIn: () => true
    })
    const app = fastify()
    app.get('/live', (request, reply) => streams.serve(request, reply, 1, principal, undefined))
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as { port: number }
    const stream = await openSse(`http://127.0.0.1:${port}`, '/live')
    await stream.waitFor((f) => f.event === 'ready')

    streams.closeAll() // what the server's preClose hook does
    await stream.ended
    const again = await fetch(`http://127.0.0.1:${port}/live`)
    expect(again.status).toBe(503)
    expect(again.headers.get('retry-after')).toBe('2')
    expect(again.headers.get('connection')).toBe('close')
    await app.close()
  })
})
