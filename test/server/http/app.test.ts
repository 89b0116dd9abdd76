// The server's front door over real HTTP: which requests reach the collector, what a POST to any
// other unknown path answers, and the security headers on every kind of answer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequest, loginAs, PREFIXES, type ApiResponse } from '../../support/api-client'
import { postCollector, type PostResult } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'

const COLLECTOR = 'monit:collect0r'
let server: TestServer
let consoleDir: string

beforeAll(async () => {
  // A console build of two files, served by the real static route.
  consoleDir = mkdtempSync(join(tmpdir(), 'overseer-console-'))
  mkdirSync(join(consoleDir, 'assets'))
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>')
  writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log("console")')
  server = await startTestServer({ consoleDir })
})
afterAll(async () => {
  await server.stopAndClean()
  rmSync(consoleDir, { recursive: true, force: true })
})

const hostByAgent = (agentId: string) =>
  server.store.sql.plain.prepare('SELECT hostname FROM host WHERE agent_id = ?').get(agentId) as { hostname: string } | undefined

describe('the collector path, matched after normalisation', () => {
  it.each([
    ['//collector', 'c0110000000000000000000000000001'],
    ['/collector/../collector', 'c0110000000000000000000000000002'],
    ['/./collector?x=1', 'c0110000000000000000000000000003'],
    ['/%63ollector', 'c0110000000000000000000000000004'],
    ['/collector/x/..', 'c0110000000000000000000000000005']
  ])('POST %s is served by the collector and stores the message', async (path, agentId) => {
    const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), agentId, `via-${agentId.slice(-1)}`), {
      auth: COLLECTOR,
      path
    })
    expect(res.status).toBe(200)
    expect(res.headers.server).toBe('mmonit/3.7.0')
    expect(hostByAgent(agentId)?.hostname).toBe(`via-${agentId.slice(-1)}`)
  })

  it('asks a normalised collector path without credentials for them, as /collector does', async () => {
    const res = await postCollector(server.baseUrl, fixture('02-status-heartbeat'), { path: '//collector' })
    expect(res.status).toBe(401)
    expect(res.headers['www-authenticate']).toBe('Basic realm="collector"')
  })
})

describe('a POST to a path that is neither the collector nor an API call', () => {
  it.each(['/collector/', '/collectors', '/collector/x', '/', '/index.csp', '/no/such/thing', '/api/2/no/such'])(
    'POST %s answers 404 JSON, never the login page, and stores nothing',
    async (path) => {
      const agentId = `c012${Buffer.from(path).toString('hex').padEnd(28, '0').slice(0, 28)}`
      const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), agentId), { auth: COLLECTOR, path })
      expect(res.status).toBe(404)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(JSON.parse(res.body)).toEqual({ error: `no such resource: ${path}` })
      expect(hostByAgent(agentId)).toBeUndefined()
    }
  )

  it('a logged-in client gets the same 404', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const res = await admin.post('/no/such/thing', { a: 1 })
    expect(res.status).toBe(404)
    expect(res.json).toEqual({ error: 'no such resource: /no/such/thing' })
  })

  it('leaves GET alone: an unknown page without a session is the login page (compat AUTH-5), an API POST too', async () => {
    const page = await httpRequest(server.baseUrl, 'GET', '/no/such/page')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html')
    expect(page.text).toContain('action="z_security_check"')
    const api = await httpRequest(server.baseUrl, 'POST', '/api/2/status/hosts/list', 'results=1', {
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    expect(api.status).toBe(200)
    expect(api.text).toContain('action="z_security_check"')
  })
})

describe('an API endpoint asked with a method other than GET or POST', () => {
  it.each(['HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    '%s answers 405 with Allow under every prefix, after the session check',
    async (method) => {
      const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
      for (const prefix of PREFIXES) {
        for (const [path, allow] of [
          ['status/hosts/list', 'GET, POST'],
          ['admin/groups/create', 'POST']
        ]) {
          const res = await httpRequest(server.baseUrl, method, `${prefix}/${path}?results=1`, undefined, { Cookie: admin.cookie! })
          expect(res.status, `${method} ${prefix}/${path}`).toBe(405)
          expect(res.headers.allow).toBe(allow)
          if (method !== 'HEAD') expect(res.json).toEqual({ error: `${path} accepts ${allow.replace(', ', ' or ')}` })
        }
      }
      // Without a session, the same answer as GET or POST there: the login page, nothing about the method.
      const anonymousCall = await httpRequest(server.baseUrl, method, '/api/2/status/hosts/list')
      expect(anonymousCall.status).toBe(200)
      if (method !== 'HEAD') expect(anonymousCall.text).toContain('action="z_security_check"')
    }
  )

  it('a HEAD elsewhere stays what it was: a console asset answers, an unknown page is the login page', async () => {
    expect((await httpRequest(server.baseUrl, 'HEAD', '/assets/app.js')).status).toBe(200)
    const page = await httpRequest(server.baseUrl, 'HEAD', '/no/such/page')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html')
  })
})

describe('security headers on every answer', () => {
  const answers: [string, number, () => Promise<ApiResponse | PostResult>][] = [
    ['the login page', 200, () => httpRequest(server.baseUrl, 'GET', '/index.csp')],
    [
      'a failed login',
      401,
      () =>
        httpRequest(server.baseUrl, 'POST', '/z_security_check', 'z_username=admin&z_password=wrong', {
          'Content-Type': 'application/x-www-form-urlencoded'
        })
    ],
    ['the health JSON', 200, () => httpRequest(server.baseUrl, 'GET', '/health')],
    ['the readiness JSON', 200, () => httpRequest(server.baseUrl, 'GET', '/ready')],
    ['an API answer', 200, async () => (await loginAs(server.baseUrl, 'admin', 'adminsecret')).get('/api/2/status/hosts/list')],
    ['an API error', 400, async () => (await loginAs(server.baseUrl, 'admin', 'adminsecret')).get('/api/2/status/hosts/get', { id: 'x' })],
    ['a 404 to a POST', 404, () => httpRequest(server.baseUrl, 'POST', '/no/such/thing')],
    ['a console asset', 200, () => httpRequest(server.baseUrl, 'GET', '/assets/app.js')],
    ['the console page', 200, async () => (await loginAs(server.baseUrl, 'admin', 'adminsecret')).get('/')],
    [
      'the metrics text',
      200,
      () =>
        httpRequest(server.baseUrl, 'GET', '/metrics', undefined, {
          Authorization: `Basic ${Buffer.from('admin:adminsecret').toString('base64')}`
        })
    ],
    ['a stored collector message', 200, () => postCollector(server.baseUrl, fixture('02-status-heartbeat'), { auth: COLLECTOR })],
    ['a collector refusal', 401, () => postCollector(server.baseUrl, fixture('02-status-heartbeat'), { auth: 'monit:wrong' })],
    ['a GET of the collector', 405, () => postCollector(server.baseUrl, '', { auth: COLLECTOR, method: 'GET' })]
  ]

  it.each(answers)('%s (%i): no framing, no MIME sniffing, no referrer elsewhere, no stored copy', async (label, status, ask) => {
    const res = await ask()
    expect(res.status).toBe(status)
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('same-origin')
    if (label !== 'a console asset') expect(res.headers['cache-control']).toBe('no-store')
  })

  it('the console asset and page keep their strict script policy', async () => {
    const asset = await httpRequest(server.baseUrl, 'GET', '/assets/app.js')
    expect(asset.status).toBe(200)
    expect(asset.text).toBe('console.log("console")')
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'")
    expect(asset.headers['content-security-policy']).not.toContain('unsafe-eval')
    // Public and revalidated, rather than the no-store of every other answer.
    expect(asset.headers['cache-control']).toBe('public, max-age=0')
  })
})
