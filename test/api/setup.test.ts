// First-run setup over real HTTP: open from 127.0.0.1 while no user exists, refused once one does,
// refused to other hosts, race-safe between two tabs. The non-loopback refusal is proven two ways:
// the address check itself (unit), and a request whose Host header names another machine (HTTP), as a
// DNS-rebinding page would send; no second local address is used (tests keep to 127.0.0.1).
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isLoopbackAddress, isLoopbackHost } from '../../src/server/http/setup'
import { type ApiResponse, errorBody, httpRequest, loginAs } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'

const CONSOLE_DIR = resolve(__dirname, '../../out/renderer')
const setup = {
  adminuname: 'root',
  adminpassword: 'first-admin-pw',
  adminfullname: 'Ruth Root',
  collectoruname: 'monit',
  collectorpassword: 'collect0r99'
}

let server: TestServer | undefined
afterEach(async () => {
  await server?.stopAndClean()
  server = undefined
})

/** A fresh server with no user at all, as after installation. */
async function freshServer(): Promise<TestServer> {
  server = await startTestServer({ initAdmin: undefined, initCollector: undefined, consoleDir: CONSOLE_DIR })
  return server
}

const complete = (s: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  httpRequest(s.baseUrl, 'POST', '/api/2/setup/complete', JSON.stringify(body), { 'Content-Type': 'application/json', ...headers })

describe('first-run setup', () => {
  it('from 127.0.0.1 with no user: serves the console at /, sends /index.csp to #/setup, creates both users', async () => {
    const s = await freshServer()
    const home = await httpRequest(s.baseUrl, 'GET', '/')
    expect(home.status).toBe(200)
    expect(home.text).toContain('<div id="root">')
    expect(home.headers['content-security-policy']).toContain("script-src 'self'")
    const index = await httpRequest(s.baseUrl, 'GET', '/index.csp')
    expect(index.status).toBe(302)
    expect(index.headers.location).toBe('/#/setup')

    const status = await httpRequest(s.baseUrl, 'GET', '/api/2/setup/status')
    expect(status.status).toBe(200)
    expect(status.json).toEqual({ setup: 'open', urls: [`http://127.0.0.1:${s.port}`] })

    const res = await complete(s, setup)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ admin: { uname: 'root' }, collector: { uname: 'monit' }, urls: [`http://127.0.0.1:${s.port}`] })

    // The administrator logs in with the normal form; the collector user may post to /collector only.
    const admin = await loginAs(s.baseUrl, 'root', 'first-admin-pw')
    expect((await admin.get('/api/2/profile/get')).json).toMatchObject({ uname: 'root', fullname: 'Ruth Root', admin: true })
    const users = (await admin.get('/api/2/admin/users/get', { id: (res.json as { collector: { id: number } }).collector.id })).json
    expect(users).toMatchObject({ uname: 'monit', admin: false, roles: [2] })
    // The audit log starts with who made the first accounts, from where.
    const audit = (await admin.get('/api/2/admin/audit/list')).json as {
      records: { action: string; uname: string; address: string; detail: string }[]
    }
    expect(audit.records.at(-1)).toMatchObject({ action: 'setup', uname: 'root', address: '127.0.0.1', detail: '{"collector":"monit"}' })
  })

  it('once a user exists: 409 for status and setup, and / is the login form again', async () => {
    const s = await freshServer()
    expect((await complete(s, setup)).status).toBe(200)
    for (const res of [
      await httpRequest(s.baseUrl, 'GET', '/api/2/setup/status'),
      await complete(s, { ...setup, adminuname: 'mallory' })
    ]) {
      expect(res.status).toBe(409)
      expect(res.json).toEqual({ error: 'setup is done: an administrator exists, log in instead' })
    }
    const home = await httpRequest(s.baseUrl, 'GET', '/')
    expect(home.text).toContain('z_security_check')
    expect((await httpRequest(s.baseUrl, 'GET', '/index.csp')).status).toBe(200)
  })

  it('on a server started with --init-admin: 409', async () => {
    server = await startTestServer()
    expect((await complete(server, setup)).status).toBe(409)
  })

  it('two tabs racing: exactly one administrator is created', async () => {
    const s = await freshServer()
    const results = await Promise.all([complete(s, setup), complete(s, { ...setup, adminuname: 'other', collectoruname: 'agent2' })])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(s.store.users.count()).toBe(2)
  })

  it('refuses a Host header naming another machine (DNS rebinding) with 403, and / stays the login form', async () => {
    const s = await freshServer()
    const res = await complete(s, setup, { Host: 'evil.example:8080' })
    expect(res.status).toBe(403)
    expect((res.json as { error: string }).error).toMatch(/only possible in a browser on the server machine/)
    expect((await httpRequest(s.baseUrl, 'GET', '/', undefined, { Host: `192.168.1.20:${s.port}` })).text).toContain('z_security_check')
    expect(s.store.users.count()).toBe(0)
  })

  it("refuses a page of another site, whatever it sends; the server's own page passes", async () => {
    const s = await freshServer()
    const own = `http://127.0.0.1:${s.port}`
    const crossSite: Record<string, string>[] = [
      { Origin: 'http://127.0.0.2:8000' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site', Origin: own },
      { 'Sec-Fetch-Site': 'same-site' }
    ]
    for (const headers of crossSite) {
      const res = await complete(s, setup, headers)
      expect([JSON.stringify(headers), res.status, res.json]).toEqual([
        JSON.stringify(headers),
        403,
        { error: "first-run setup is only possible from the server's own page" }
      ])
    }
    expect(s.store.users.count()).toBe(0)
    expect((await complete(s, setup, { Origin: own, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200)
  })

  it('refuses form posts (a cross-site form needs no preflight) and bad arguments, naming them', async () => {
    const s = await freshServer()
    const form = await httpRequest(s.baseUrl, 'POST', '/api/2/setup/complete', new URLSearchParams(setup).toString(), {
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    expect(form.status).toBe(415)
    const cases: [Record<string, string>, RegExp][] = [
      [{ adminpassword: 'short' }, /'adminpassword': must be at least 8/],
      [{ adminuname: '' }, /'adminuname': must not be empty/],
      [{ collectorpassword: 'has space 123' }, /'collectorpassword': the password may hold letters and digits only/],
      [{ collectoruname: 'root' }, /'collectoruname': must differ/]
    ]
    for (const [change, error] of cases) {
      const res = await complete(s, { ...setup, ...change })
      expect(res.status).toBe(400)
      expect((res.json as { error: string }).error).toMatch(error)
    }
    const missing = await complete(s, { adminuname: 'x' })
    expect(missing.json).toEqual(errorBody("invalid argument 'adminpassword': is required"))
    expect((await complete(s, 'not an object')).status).toBe(400)
    expect(s.store.users.count()).toBe(0)
  })
})

describe('the loopback checks', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['192.168.1.20', false],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1', false],
    ['128.0.0.1', false],
    [undefined, false]
  ])('address %s is loopback: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback)
  })

  it.each([
    ['127.0.0.1:8080', true],
    ['localhost:8080', true],
    ['LOCALHOST', true],
    ['[::1]:8080', true],
    ['127.0.0.1', true],
    ['evil.example', false],
    ['localhost.evil.example:8080', false],
    ['192.168.1.20:8080', false],
    ['[fe80::1]:8080', false],
    [undefined, false]
  ])('Host %s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback)
  })
})
