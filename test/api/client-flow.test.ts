// What existing M/Monit API clients do, step by step (compat §8), against the real server with data
// from real agent payloads posted to /collector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequest, type ApiResponse } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  for (let i = 1; i <= 3; i++) {
    const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), String(i).padStart(32, '0'), `web${i}`), {
      auth: 'monit:collect0r'
    })
    expect(res.status).toBe(200)
  }
})
afterAll(() => server.stopAndClean())

/** A client that keeps only the part of Set-Cookie before the first ';', as several clients do. */
class ScriptedClient {
  cookie = ''
  constructor(private readonly base: string) {}

  private keep(res: ApiResponse): ApiResponse {
    const set = res.headers['set-cookie']
    if (set?.length) this.cookie = set[0].split(';')[0]
    return res
  }

  async get(path: string, headers: Record<string, string> = {}) {
    return this.keep(await httpRequest(this.base, 'GET', path, undefined, { Cookie: this.cookie, Referer: '/index.csp', ...headers }))
  }

  async post(path: string, form: string, headers: Record<string, string> = {}) {
    return this.keep(
      await httpRequest(this.base, 'POST', path, form, {
        Cookie: this.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...headers
      })
    )
  }

  /** "Logged out" as clients detect it: text/html, or a body not starting with { or [. */
  static loggedOut(res: ApiResponse): boolean {
    return res.headers['content-type'] === 'text/html' || !/^[{[]/.test(res.text)
  }
}

describe('an M/Monit API client session', () => {
  it('runs: cookie, login, list, get, re-login after the HTML answer, CSRF delete, logout', async () => {
    const client = new ScriptedClient(server.baseUrl)

    // 1. Cookie jar from /index.csp.
    const first = await client.get('/index.csp')
    expect(first.status).toBe(200)
    expect(client.cookie).toMatch(/^zsessionid=[0-9a-f]{32}$/)
    const cookie = client.cookie

    // 2. Form login with CSRF protection on: 302, same cookie.
    const login = await client.post('/z_security_check', 'z_username=admin&z_password=adminsecret')
    expect(login.status).toBe(302)
    expect(client.cookie).toBe(cookie)

    // 3. List with results=1000.
    const list = await client.get('/api/2/status/hosts/list?results=1000')
    expect(ScriptedClient.loggedOut(list)).toBe(false)
    const records = (list.json as { records: { id: number; hostname: string }[]; totalRecords: number }).records
    expect(records.map((r) => r.hostname).sort()).toEqual(['web1', 'web2', 'web3'])
    expect(list.headers.date).toBeTruthy()

    // 4. Get, reading records.host.
    const web2 = records.find((r) => r.hostname === 'web2')!
    const get = await client.get(`/api/2/status/hosts/get?id=${web2.id}`)
    const host = (get.json as { records: { host: { id: number; name: string; services: unknown[] } } }).records.host
    expect(host).toMatchObject({ id: web2.id, name: 'web2' })
    expect(host.services).toHaveLength(11)

    // 5. The session ends behind the client's back: the API answers with the HTML login page; the
    //    client logs in again (with the new cookie) and repeats the call.
    const token = ((await client.get('/api/2/session/get?key=CSRFToken')).json as { CSRFToken: string }).CSRFToken
    server.store.sql.plain.prepare('DELETE FROM session WHERE id = ?').run(cookie.split('=')[1])
    const expired = await client.get(`/api/2/status/hosts/get?id=${web2.id}`)
    expect(expired.status).toBe(200)
    expect(ScriptedClient.loggedOut(expired)).toBe(true)
    expect(client.cookie).not.toBe(cookie)
    expect((await client.post('/z_security_check', 'z_username=admin&z_password=adminsecret')).status).toBe(302)
    expect(ScriptedClient.loggedOut(await client.get(`/api/2/status/hosts/get?id=${web2.id}`))).toBe(false)

    // 6. Delete with the CSRF token in a header (the old session's token no longer works).
    const web3 = records.find((r) => r.hostname === 'web3')!
    expect((await client.post('/admin/hosts/delete', `id=${web3.id}`, { CSRFToken: token })).status).toBe(403)
    const fresh = ((await client.get('/api/2/session/get?key=CSRFToken')).json as { CSRFToken: string }).CSRFToken
    const deleted = await client.post('/admin/hosts/delete', `id=${web3.id}`, { CSRFToken: fresh })
    expect(deleted.status).toBe(200)
    expect(deleted.text.startsWith('{')).toBe(true)
    const after = (await client.get('/api/2/status/hosts/list?results=1000')).json as { totalRecords: number }
    expect(after.totalRecords).toBe(2)

    // 7. Logout: 302 to /index.csp, which answers 200; the API now answers with the login page.
    const logout = await client.get('/login/logout.csp')
    expect(logout.status).toBe(302)
    expect((await client.get(logout.headers.location as string)).status).toBe(200)
    expect(ScriptedClient.loggedOut(await client.get('/api/2/status/hosts/list'))).toBe(true)
  })

  it('the "am I logged in?" probe: GET /session/get is JSON when logged in (AUTH-9)', async () => {
    const client = new ScriptedClient(server.baseUrl)
    await client.get('/')
    expect(ScriptedClient.loggedOut(await client.get('/session/get'))).toBe(true)
    await client.post('/z_security_check', 'z_username=admin&z_password=adminsecret&z_csrf_protection=off')
    const probe = await client.get('/session/get')
    expect(probe.status).toBe(200)
    expect(ScriptedClient.loggedOut(probe)).toBe(false)
  })
})
