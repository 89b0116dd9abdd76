// Form login, sessions and CSRF as M/Monit clients rely on them (compat §2, §3).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer } from '../../src/server/server'
import { silentLogger } from '../../src/server/log'
import { LoginThrottle } from '../../src/server/auth/login-throttle'
import { anonymous, httpRequest, loginAs, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { databaseFor } from '../support/test-database'
import { addUser } from '../support/users'

let server: TestServer
beforeAll(async () => (server = await startTestServer()))
afterAll(() => server.stopAndClean())

const isLoginPage = (res: { status: number; headers: Record<string, unknown>; text: string }) =>
  res.status === 200 && res.headers['content-type'] === 'text/html' && res.text.includes('action="z_security_check"')

describe('login page and session cookie (AUTH-1)', () => {
  it.each(['/index.csp', '/'])('GET %s without a session: the login form and exactly one zsessionid cookie', async (path) => {
    const res = await httpRequest(server.baseUrl, 'GET', path)
    expect(isLoginPage(res)).toBe(true)
    expect(res.text).toMatch(/name="z_username"/)
    expect(res.text).toMatch(/name="z_password"/)
    expect(res.text).toMatch(/method="post"/)
    const cookies = res.headers['set-cookie']!
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatch(/^zsessionid=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax$/)
  })
})

describe('login (AUTH-2..4)', () => {
  it('answers 302 to /index.csp and keeps the session id', async () => {
    const client = await anonymous(server.baseUrl)
    const before = client.cookie
    const res = await client.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/index.csp')
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(client.cookie).toBe(before)
    const home = await client.get('/index.csp')
    expect(home.status).toBe(200)
    expect(home.text).not.toContain('z_security_check')
  })

  it('creates the session when the login carries no cookie', async () => {
    const res = await httpRequest(server.baseUrl, 'POST', '/z_security_check', 'z_username=admin&z_password=adminsecret', {
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    expect(res.status).toBe(302)
    const cookie = res.headers['set-cookie']![0].split(';')[0]
    const me = await httpRequest(server.baseUrl, 'GET', '/api/2/session/get', undefined, { Cookie: cookie })
    expect(me.status).toBe(200)
  })

  it('redirects to the URL first asked for', async () => {
    const client = await anonymous(server.baseUrl)
    expect(isLoginPage(await client.get('/api/2/session/get', { key: 'x' }))).toBe(true)
    const res = await client.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })
    expect(res.headers.location).toBe('/api/2/session/get?key=x')
  })

  it('a bad password: 401 with the login page and an error, JSON when asked, and no session', async () => {
    const client = await anonymous(server.baseUrl)
    const res = await client.post('/z_security_check', { z_username: 'admin', z_password: 'nope' })
    expect(res.status).toBe(401)
    expect(res.headers['www-authenticate']).toBeUndefined()
    expect(res.headers['content-type']).toBe('text/html')
    expect(res.text).toContain('Invalid username or password')
    const json = await client.post('/z_security_check', { z_username: 'ghost', z_password: 'x' }, { Accept: 'application/json' })
    expect(json.status).toBe(401)
    expect(json.json).toEqual({ error: 'Invalid username or password' })
    expect(isLoginPage(await client.get('/api/2/session/get'))).toBe(true)
  })
})

describe('requests without a valid session (AUTH-5)', () => {
  it.each(['/status/hosts/list', '/api/1/status/hosts/list', '/api/2/session/get', '/api/2/admin/users/list', '/no/such/page'])(
    '%s answers 200 with the login page, even to Accept: application/json',
    async (path) => {
      const res = await httpRequest(server.baseUrl, 'GET', path, undefined, { Accept: 'application/json' })
      expect(isLoginPage(res)).toBe(true)
      expect(res.headers['set-cookie']).toHaveLength(1)
    }
  )

  it('replaces an unknown session id with a fresh one', async () => {
    const res = await httpRequest(server.baseUrl, 'GET', '/api/2/session/get', undefined, { Cookie: 'zsessionid=' + 'a'.repeat(32) })
    expect(isLoginPage(res)).toBe(true)
    expect(res.headers['set-cookie']![0]).not.toContain('a'.repeat(32))
  })

  it('with a session, an unknown path is a JSON 404', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const res = await client.get('/api/2/no/such/thing')
    expect(res.status).toBe(404)
    expect(res.json).toEqual({ error: 'no such resource: /api/2/no/such/thing' })
  })

  it('ignores an Authorization: Basic header on session paths (GEN-5)', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const res = await client.get('/api/2/session/get', {}, { Authorization: 'Basic ' + Buffer.from('proxy:pw').toString('base64') })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.text.startsWith('{')).toBe(true)
  })
})

describe('logout and session life (AUTH-7, AUTH-8)', () => {
  it('session/invalidate logs out', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    expect((await client.get('/api/1/session/invalidate')).json).toEqual({})
    expect(isLoginPage(await client.get('/api/1/session/get'))).toBe(true)
  })

  it('/login/logout.csp logs out and redirects to a 200 login page', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const res = await client.get('/login/logout.csp')
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/index.csp')
    expect(isLoginPage(await client.get('/index.csp'))).toBe(true)
  })

  it('expires a session after 1800 s idle', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const id = client.cookie!.split('=')[1]
    server.store.sql.plain.prepare('UPDATE session SET last_access = last_access - 1801 WHERE id = ?').run(id)
    expect(isLoginPage(await client.get('/api/2/session/get'))).toBe(true)
  })

  it('keeps sessions across a server restart', async () => {
    const first = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: server.dataDir + '-restart',
      database: databaseFor(server.dataDir + '-restart'),
      log: silentLogger,
      initAdmin: { user: 'admin', password: 'pw' }
    })
    const client = await loginAs(`http://127.0.0.1:${first.port}`, 'admin', 'pw')
    await first.close()
    const second = await startServer({
      host: '127.0.0.1',
      port: first.port,
      dataDir: server.dataDir + '-restart',
      database: databaseFor(server.dataDir + '-restart'),
      log: silentLogger
    })
    const res = await httpRequest(`http://127.0.0.1:${second.port}`, 'GET', '/api/2/session/get', undefined, { Cookie: client.cookie! })
    await second.close()
    expect(res.status).toBe(200)
    expect(res.json).toHaveProperty('CSRFToken')
  })
})

describe('session attributes (session/put|get|delete)', () => {
  it('stores several pairs in one put, returns all or chosen keys, deletes some or all', async () => {
    const c = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    expect((await c.post('/api/2/session/put', { myvar1: 'hello', myvar2: 'world' })).json).toEqual({})
    expect((await c.get('/session/get', { key: ['myvar1', 'nope'] })).json).toEqual({ myvar1: 'hello' })
    const all = (await c.get('/api/1/session/get')).json as Record<string, string>
    expect(all).toMatchObject({ myvar1: 'hello', myvar2: 'world' })
    expect(all.CSRFToken).toMatch(/^[0-9a-f]{32}$/)
    await c.post('/api/2/session/put', { myvar1: 'again' })
    expect((await c.get('/api/2/session/get', { key: 'myvar1' })).json).toEqual({ myvar1: 'again' })
    await c.post('/api/2/session/delete', { key: 'myvar1' })
    expect((await c.get('/api/2/session/get')).json).not.toHaveProperty('myvar1')
    await c.post('/api/2/session/delete')
    expect(Object.keys((await c.get('/api/2/session/get')).json as object)).toEqual(['CSRFToken'])
  })
})

describe('CSRF (compat §3)', () => {
  it('with protection on, a state-changing call needs the token as header or parameter', async () => {
    const c = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const denied = await c.post('/api/2/session/put', { a: '1' })
    expect(denied.status).toBe(403)
    expect(denied.json).toEqual({ error: 'Invalid CSRF token' })
    expect((await c.post('/api/2/session/put', { a: '1' }, { CSRFToken: 'f'.repeat(32) })).status).toBe(403)
    const token = await c.csrfToken()
    expect((await c.post('/api/2/session/put', { a: '2' }, { CSRFToken: token })).status).toBe(200)
    expect((await c.post('/api/2/session/put', { a: '3', CSRFToken: token })).status).toBe(200)
    expect(await c.csrfToken()).toBe(token) // constant for the session
    // Reads sent as POST need no token.
    expect((await c.post('/api/2/session/get', { key: 'a' })).json).toEqual({ a: '3' })
  })

  it('with z_csrf_protection=off, no token is needed', async () => {
    const c = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'off' })
    expect((await c.post('/api/2/session/put', { a: '1' })).status).toBe(200)
  })
})

describe('brute-force throttle (AUTH-4)', () => {
  // The throttle's clock is the test's: "the window passes" takes no five minutes.
  const clock = { sec: Date.now() / 1000 }
  let own: TestServer
  beforeAll(async () => (own = await startTestServer({ loginThrottle: new LoginThrottle({ now: () => clock.sec }) })))
  afterAll(() => own.stopAndClean())
  beforeEach(() => {
    clock.sec += 301
  })

  const guessAdmin = async (guesser: ApiClient) => {
    for (let i = 0; i < 5; i++)
      expect((await guesser.post('/z_security_check', { z_username: 'admin', z_password: `guess${i}` })).status).toBe(401)
  }

  it('refuses logins of a user from an address after 5 failures, even with the right password', async () => {
    const guesser = await anonymous(own.baseUrl)
    await guessAdmin(guesser)
    const blocked = await guesser.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })
    expect(blocked.status).toBe(429)
    expect(blocked.headers['retry-after']).toBe('300')
    expect(blocked.headers['content-type']).toBe('text/html')
    expect(blocked.text).toContain('Too many failed logins')
    const json = await guesser.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' }, { Accept: 'application/json' })
    expect(json.status).toBe(429)
    expect(json.json).toEqual({ error: 'Too many failed logins; try again in 300 seconds' })
    expect(isLoginPage(await guesser.get('/api/2/session/get'))).toBe(true)
  })

  it('lets the right password in once the window has passed', async () => {
    const guesser = await anonymous(own.baseUrl)
    await guessAdmin(guesser)
    clock.sec += 299
    expect((await guesser.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })).headers['retry-after']).toBe('1')
    clock.sec += 1
    expect((await guesser.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })).status).toBe(302)
  })

  it('does not lock out another user of the same address (a shared NAT)', async () => {
    const guesser = await anonymous(own.baseUrl)
    await guessAdmin(guesser)
    addUser(own.store, { uname: 'colleague', password: 'colleaguepw', roleIds: [] })
    const colleague = await anonymous(own.baseUrl)
    expect((await colleague.post('/z_security_check', { z_username: 'colleague', z_password: 'colleaguepw' })).status).toBe(302)
    expect((await guesser.post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })).status).toBe(429)
  })

  it("counts failed Basic credentials too: guessing on /metrics locks that user's form login from that address", async () => {
    expect(
      (await (await anonymous(own.baseUrl)).post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })).status
    ).toBe(302)
    for (let i = 0; i < 5; i++) {
      const res = await httpRequest(own.baseUrl, 'GET', '/metrics', undefined, {
        Authorization: `Basic ${Buffer.from(`admin:guess${i}`).toString('base64')}`
      })
      expect(res.status).toBe(401)
    }
    const form = await (await anonymous(own.baseUrl)).post('/z_security_check', { z_username: 'admin', z_password: 'adminsecret' })
    expect(form.status).toBe(429)
  })
})
