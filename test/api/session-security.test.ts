// Sessions nobody can abuse (issue 26): no lock-out by piling up sessions, no login for the collector
// account, no fixation of a planted cookie, no login or logout forged by another site, bounded session
// attributes. M/Monit's clients send no browser headers and keep their cookie (test/api/client-flow.test.ts).
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ATTRIBUTES, MAX_ATTRIBUTES_SIZE, MAX_ATTRIBUTE_NAME, MAX_ATTRIBUTE_VALUE } from '../../src/server/api/session'
import { MAX_ANONYMOUS_SESSIONS, MAX_SESSIONS_PER_USER } from '../../src/server/auth/sessions'
import { anonymous, loginAs, type ApiClient, type ApiResponse } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { ADMIN, COLLECTOR, startTestServer, type TestServer } from '../support/in-process-server'
import { addUser } from '../support/users'

let server: TestServer
let viewer: number
beforeAll(async () => {
  server = await startTestServer()
  viewer = addUser(server.store, { uname: 'viewer', password: 'viewer-pw', roleIds: [] })
})
afterAll(() => server.stopAndClean())

const loggedIn = async (c: ApiClient) => (await c.get('/api/2/session/get')).headers['content-type'] !== 'text/html'
const cookieSet = (res: ApiResponse) => res.headers['set-cookie']?.[0]?.split(';')[0]
const userIdOf = (store: TestServer['store'], uname: string) => store.users.credentialsOf(uname)!.id
const anonymousCount = () =>
  Number((server.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM session WHERE user_id IS NULL').get() as { n: number | string }).n)

/** `count` sessions of the user left behind as logins leave them (a script that never logs out). */
function leaveSessions(userId: number | null, count: number, idleSec = 10): void {
  const now = Math.floor(Date.now() / 1000) - idleSec
  for (let i = 0; i < count; i++) {
    server.store.sessions.create({
      id: randomBytes(16).toString('hex'),
      user_id: userId,
      csrf_token: randomBytes(16).toString('hex'),
      csrf_protection: 0,
      attributes: '{}',
      saved_url: null,
      created_at: now,
      last_access: now
    })
  }
}

describe('no lock-out by piling up sessions (issue 26)', () => {
  it('after 1,030 logins of one account, an administrator and that account still log in and stay logged in', async () => {
    leaveSessions(viewer, 1030)
    const admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    expect(await loggedIn(admin)).toBe(true)
    const again = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    expect(await loggedIn(again)).toBe(true)
    expect(await loggedIn(admin)).toBe(true)
  })

  // Which of the logins made within one second go is the store's choice: sessions.test.ts checks, on its own
  // clock, that they are the least recently used.
  it('logins past the per-user cap end sessions of that account only, never the new one', async () => {
    addUser(server.store, { uname: 'script', password: 'script-pw', roleIds: [] })
    const admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    const logins: ApiClient[] = []
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 2; i++) {
      logins.push(await loginAs(server.baseUrl, 'script', 'script-pw'))
      expect(await loggedIn(logins[i])).toBe(true)
    }
    let live = 0
    for (const login of logins) if (await loggedIn(login)) live++
    expect(live).toBe(MAX_SESSIONS_PER_USER)
    expect(await loggedIn(admin)).toBe(true)
  })

  it('a flood of anonymous sessions evicts only anonymous ones, and an API client still logs in with the cookie it got first', async () => {
    const admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    leaveSessions(null, 1030)
    const client = await anonymous(server.baseUrl)
    const cookie = client.cookie
    expect(anonymousCount()).toBe(MAX_ANONYMOUS_SESSIONS)
    const login = await client.post('/z_security_check', { z_username: 'viewer', z_password: 'viewer-pw', z_csrf_protection: 'off' })
    expect(login.status).toBe(302)
    expect(client.cookie).toBe(cookie)
    expect(await loggedIn(client)).toBe(true)
    expect(await loggedIn(admin)).toBe(true)
  })
})

describe('the collector account (issue 26)', () => {
  it('cannot log in: 403 with the login page saying why, or JSON; it stays logged out', async () => {
    const client = await anonymous(server.baseUrl)
    const res = await client.post('/z_security_check', { z_username: COLLECTOR.user, z_password: COLLECTOR.password })
    expect(res.status).toBe(403)
    expect(res.headers['content-type']).toBe('text/html')
    expect(res.text).toContain('This account may only send agent data to /collector: it cannot log in')
    expect(await loggedIn(client)).toBe(false)
    const json = await client.post(
      '/z_security_check',
      { z_username: COLLECTOR.user, z_password: COLLECTOR.password },
      { Accept: 'application/json' }
    )
    expect(json.status).toBe(403)
    expect(json.json).toEqual({ error: 'This account may only send agent data to /collector: it cannot log in' })
  })

  it('a session it holds from before gets the login page, and its agents still post', async () => {
    const before = await anonymous(server.baseUrl)
    const id = before.cookie!.split('=')[1]
    server.store.sessions.update(id, { user_id: userIdOf(server.store, COLLECTOR.user) })
    expect(await loggedIn(before)).toBe(false)
    await server.collect(asAgent(fixture('02-status-heartbeat'), 'c'.repeat(32), 'collected'))
  })
})

describe('session fixation (issue 26)', () => {
  const browser = () => ({ Origin: server.baseUrl, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' })

  it('a browser login moves to a new id: the planted cookie stays logged out', async () => {
    const attacker = await anonymous(server.baseUrl)
    const planted = attacker.cookie!
    const victim = await anonymous(server.baseUrl)
    victim.cookie = planted
    const res = await victim.post('/z_security_check', { z_username: 'viewer', z_password: 'viewer-pw' }, browser())
    expect(res.status).toBe(302)
    expect(cookieSet(res)).toMatch(/^zsessionid=[0-9a-f]{32}$/)
    expect(cookieSet(res)).not.toBe(planted)
    expect(res.headers['set-cookie']).toHaveLength(1)
    expect(await loggedIn(victim)).toBe(true)
    expect(await loggedIn(attacker)).toBe(false)
  })

  // Node's fetch sends Sec-Fetch-Mode: cors, and no other browser header.
  it.each([[{}], [{ 'Sec-Fetch-Mode': 'cors' }]])('an API client sending %j keeps its id (compat AUTH-3)', async (headers) => {
    const client = await anonymous(server.baseUrl)
    const cookie = client.cookie
    const res = await client.post('/z_security_check', { z_username: 'viewer', z_password: 'viewer-pw' }, headers)
    expect(res.status).toBe(302)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(client.cookie).toBe(cookie)
    expect(await loggedIn(client)).toBe(true)
  })
})

describe('login and logout forged by another site (issue 26)', () => {
  it.each([
    [{ Origin: 'http://evil.example' }],
    [{ Origin: 'null' }],
    [{ 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' }],
    [{ 'Sec-Fetch-Site': 'same-site' }],
    // X-Forwarded-Host counts only from a trusted proxy (test/server/http/trusted-proxy.test.ts): this server has none.
    [{ Origin: 'http://monitor.example', 'X-Forwarded-Host': 'monitor.example' }]
  ])('refuses a login with %j: 403, not logged in', async (headers) => {
    const client = await anonymous(server.baseUrl)
    const res = await client.post('/z_security_check', { z_username: 'viewer', z_password: 'viewer-pw' }, headers)
    expect(res.status).toBe(403)
    expect(res.text).toContain('Cross-site login refused')
    expect(await loggedIn(client)).toBe(false)
  })

  it.each([
    [{ Origin: 'ORIGIN' }],
    [{ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://proxy-rewrote-host.example' }],
    [{ 'Sec-Fetch-Site': 'none' }]
  ])('lets a login with %j in', async (headers) => {
    const client = await anonymous(server.baseUrl)
    const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'ORIGIN' ? server.baseUrl : v]))
    const res = await client.post('/z_security_check', { z_username: 'viewer', z_password: 'viewer-pw' }, sent)
    expect(res.status).toBe(302)
    expect(await loggedIn(client)).toBe(true)
  })

  it("logout by POST needs the session's CSRF token; GET stays for API clients; another site's is refused", async () => {
    const console = await loginAs(server.baseUrl, 'viewer', 'viewer-pw', { csrf: 'on' })
    const token = await console.csrfToken()
    expect((await console.post('/login/logout.csp')).status).toBe(403)
    expect((await console.get('/login/logout.csp', {}, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect(await loggedIn(console)).toBe(true)
    const out = await console.post('/login/logout.csp', {}, { CSRFToken: token, Origin: server.baseUrl })
    expect(out.status).toBe(302)
    expect(out.headers.location).toBe('/index.csp')
    expect(await loggedIn(console)).toBe(false)

    const script = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    expect((await script.get('/login/logout.csp')).status).toBe(302)
    expect(await loggedIn(script)).toBe(false)
  })
})

describe('session attributes are bounded (issue 26)', () => {
  const put = (c: ApiClient, params: Record<string, string>) => c.post('/api/2/session/put', params)
  const stored = async (c: ApiClient) => Object.keys((await c.get('/api/2/session/get')).json as object).length - 1 // CSRFToken

  it.each([
    [
      'too many',
      Object.fromEntries(Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => [`k${i}`, 'v'])),
      `a session holds at most ${MAX_ATTRIBUTES} attributes`
    ],
    ['a long name', { ['n'.repeat(MAX_ATTRIBUTE_NAME + 1)]: 'v' }, `a session attribute name is at most ${MAX_ATTRIBUTE_NAME} characters`],
    [
      'a long value',
      { big: 'v'.repeat(MAX_ATTRIBUTE_VALUE + 1) },
      `session attribute big: a value is at most ${MAX_ATTRIBUTE_VALUE} characters`
    ],
    [
      'too much in all',
      Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'v'.repeat(MAX_ATTRIBUTE_VALUE)])),
      `a session's attributes take at most ${MAX_ATTRIBUTES_SIZE} characters in all`
    ]
  ])('%s: 400 with the bound, nothing stored', async (_, params, error) => {
    const c = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    const res = await put(c, params)
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ error })
    expect(await stored(c)).toBe(0)
  })

  it('up to the bounds, all is stored; one attribute more is refused, a replaced one is not', async () => {
    const c = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    const longest = 'n'.repeat(MAX_ATTRIBUTE_NAME)
    expect((await put(c, { [longest]: 'v'.repeat(MAX_ATTRIBUTE_VALUE) })).status).toBe(200)
    expect((await put(c, Object.fromEntries(Array.from({ length: MAX_ATTRIBUTES - 1 }, (_, i) => [`k${i}`, 'v'])))).status).toBe(200)
    expect(await stored(c)).toBe(MAX_ATTRIBUTES)
    expect((await put(c, { one: 'more' })).status).toBe(400)
    expect((await put(c, { [longest]: 'replaced' })).status).toBe(200)
  })
})
