// What a client may make the server hold before it has proved who it is (issue 26, item 4), over real
// sockets on loopback with bounded counts. Timeouts are made short through the server's options, so
// every wait here is about a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, startTestServer, type TestServer } from '../../support/in-process-server'
import { openRaw, requestHead, type RawConnection } from '../../support/raw-socket'

const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500 }
/** Time for Node to notice a request past its timeout, on a busy machine (without the limits: never). */
const GRACE_MS = 4000

let server: TestServer
let port: number
beforeAll(async () => {
  server = await startTestServer({ httpLimits: TIMEOUTS })
  port = server.port
})
afterAll(() => server.stopAndClean())

/** Connections open now, as /metrics counts them (the scrape's own included). */
async function openConnections(): Promise<number> {
  const res = await fetch(`${server.baseUrl}/metrics`, {
    headers: { Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` }
  })
  return Number(/^overseer_http_connections (\d+)$/m.exec(await res.text())?.[1])
}

const loginForm = (length: number) =>
  requestHead('POST', '/z_security_check', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': length })

describe('slow requests are closed by the timeouts', () => {
  it('200 connections that never finish their headers are closed within the headers timeout', async () => {
    const slow = await Promise.all(Array.from({ length: 200 }, () => openRaw(port, loginForm(100).slice(0, 40))))
    expect(await openConnections()).toBeGreaterThanOrEqual(201)
    const closedAfter = await Promise.all(slow.map((c) => c.closed))
    expect(Math.max(...closedAfter)).toBeLessThan(TIMEOUTS.headersTimeoutMs + GRACE_MS)
    expect(Math.min(...closedAfter)).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeoutMs - 50)
  })

  it('a login form whose body never ends is answered 408 and closed within the request timeout', async () => {
    const slow = await Promise.all(Array.from({ length: 50 }, () => openRaw(port, loginForm(600) + 'z_username=admin&')))
    const closedAfter = await Promise.all(slow.map((c) => c.closed))
    expect(Math.max(...closedAfter)).toBeLessThan(TIMEOUTS.requestTimeoutMs + GRACE_MS)
    for (const c of slow) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('a client that never finishes its request does not hold the shutdown', async () => {
    const other = await startTestServer({ httpLimits: TIMEOUTS })
    const c = await openRaw(other.port, loginForm(600))
    await new Promise((r) => setTimeout(r, 100))
    // Shutdown ends (the test's own time limit bounds it) and closes the unfinished request itself.
    await other.stopAndClean()
    expect(await c.closed).toBeGreaterThan(0)
  })

  it('the server holds none of them once they are gone, and still answers', async () => {
    expect(await openConnections()).toBeLessThanOrEqual(2) // the scrape, and fetch's kept-alive one
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
  })
})

describe('bodies are small until a session admits more', () => {
  it('a login form over 16 KiB is answered 413 at once, its body unread', async () => {
    const c = await openRaw(port, loginForm(17 * 1024) + 'z_username=')
    await c.receivedText('\r\n\r\n')
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 /)
    expect(c.received()).toContain('request body is too large')
    c.socket.destroy()
  })

  it('a real login (under 1 KiB) still works', async () => {
    const res = await fetch(`${server.baseUrl}/z_security_check`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'z_username=admin&z_password=adminsecret',
      redirect: 'manual'
    })
    expect(res.status).toBe(302)
  })

  it('a large body to a session-gated endpoint without a session gets the login page before any of it is read', async () => {
    const head = requestHead('POST', '/api/2/admin/users/list', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': 512 * 1024
    })
    const c = await openRaw(port, head + 'a=1&')
    await c.receivedText('</html>')
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /)
    expect(c.received()).toContain('text/html')
    c.socket.destroy()
  })

  it('the same body with a session is read whole (the larger limit)', async () => {
    const admin = await server.loginAsAdmin()
    const res = await admin.post('/api/2/admin/users/list', { padding: 'x'.repeat(100 * 1024) })
    expect(res.status).toBe(200)
  })

  it('setup and other public endpoints take 16 KiB at most', async () => {
    const res = await fetch(`${server.baseUrl}/api/2/setup/complete`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ adminuname: 'x'.repeat(20 * 1024) })
    })
    expect(res.status).toBe(413)
  })
})

describe('connections are capped overall and per address', () => {
  let capped: TestServer
  const open: RawConnection[] = []
  beforeAll(async () => {
    capped = await startTestServer({ httpLimits: { maxConnections: 30, maxConnectionsPerAddress: 20 } })
  })
  afterAll(async () => {
    for (const c of open) c.socket.destroy()
    await capped.stopAndClean()
  })

  /** A kept-alive connection from `address` the server has answered on: it is counted. */
  const held = async (address: string) => {
    const c = await openRaw(capped.port, requestHead('GET', '/health', {}), address)
    open.push(c)
    await c.receivedText('"ok"')
    return c
  }
  const refused = async (address: string) => {
    const c = await openRaw(capped.port, requestHead('GET', '/health', {}), address)
    await c.closed
    return c.received() === ''
  }

  it('refuses the connection past the cap per address, and serves another address meanwhile', async () => {
    const first = await Promise.all(Array.from({ length: 20 }, () => held('127.0.0.1')))
    expect(await refused('127.0.0.1')).toBe(true)
    expect((await held('127.0.0.2')).received()).toMatch(/^HTTP\/1\.1 200 /)

    first[0].socket.destroy()
    await first[0].closed
    await new Promise((r) => setTimeout(r, 50))
    expect((await held('127.0.0.1')).received()).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('refuses any connection past the overall cap', async () => {
    // 21 are open (20 from 127.0.0.1, 1 from 127.0.0.2): 9 more reach 30.
    await Promise.all(Array.from({ length: 9 }, () => held('127.0.0.3')))
    expect(await refused('127.0.0.4')).toBe(true)
  })
})
