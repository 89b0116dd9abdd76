// --trusted-proxy (issue 26): X-Forwarded-For, -Proto and -Host are believed from the listed proxies
// only. From them, the login throttle counts each real client (five bad passwords behind a proxy no
// longer lock out everyone), the cookie becomes Secure behind an HTTPS proxy, and the collector counts
// agents apart; from anyone else the headers change nothing.
import { afterEach, describe, expect, it } from 'vitest'
import { LoginThrottle } from '../../../src/server/auth/login-throttle'
import type { ServerOptions } from '../../../src/server/server'
import { anonymous, httpRequest } from '../../support/api-client'
import { capturedLog } from '../../support/captured-log'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { ADMIN, COLLECTOR, startTestServer, type TestServer } from '../../support/in-process-server'
import { waitFor } from '../../support/wait'

const servers: TestServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stopAndClean()
})

async function serverWith(opts: Partial<ServerOptions>): Promise<TestServer> {
  const server = await startTestServer({ loginThrottle: new LoginThrottle({ limit: 2 }), ...opts })
  servers.push(server)
  return server
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
const login = (server: TestServer, password: string, headers: Record<string, string>) =>
  httpRequest(server.baseUrl, 'POST', '/z_security_check', `z_username=${ADMIN.user}&z_password=${password}`, { ...FORM, ...headers })
const from = (address: string) => ({ 'X-Forwarded-For': address })

describe('the login throttle behind a reverse proxy', () => {
  it('counts each client a trusted proxy names', async () => {
    const server = await serverWith({ trustedProxies: ['127.0.0.1'] })
    for (let i = 0; i < 2; i++) expect((await login(server, 'wrong', from('10.0.0.1'))).status).toBe(401)
    expect((await login(server, ADMIN.password, from('10.0.0.1'))).status).toBe(429)
    // Another user behind the same proxy is not locked out by the guesser.
    expect((await login(server, ADMIN.password, from('10.0.0.2'))).status).toBe(302)
  })

  it('ignores X-Forwarded-For from an address it does not trust', async () => {
    const server = await serverWith({ trustedProxies: ['192.0.2.1'] })
    for (let i = 0; i < 2; i++) expect((await login(server, 'wrong', from('10.0.0.1'))).status).toBe(401)
    // The guesser cannot escape its lock by naming another address.
    expect((await login(server, ADMIN.password, from('10.0.0.2'))).status).toBe(429)
  })
})

describe('X-Forwarded-Proto', () => {
  it('makes the session cookie Secure and sends HSTS only from a trusted proxy', async () => {
    const trusted = await serverWith({ trustedProxies: ['127.0.0.0/8'] })
    const behindProxy = await login(trusted, ADMIN.password, { 'X-Forwarded-Proto': 'https' })
    expect(behindProxy.status).toBe(302)
    expect([behindProxy.headers['set-cookie']].flat().join()).toMatch(/;\s*Secure/i)
    expect(behindProxy.headers['strict-transport-security']).toBe('max-age=31536000')

    const untrusted = await serverWith({})
    const forged = await login(untrusted, ADMIN.password, { 'X-Forwarded-Proto': 'https' })
    expect(forged.status).toBe(302)
    expect([forged.headers['set-cookie']].flat().join()).not.toMatch(/Secure/i)
    expect(forged.headers['strict-transport-security']).toBeUndefined()
  })
})

describe('X-Forwarded-Host', () => {
  const proxied = { Origin: 'http://monitor.example', 'X-Forwarded-Host': 'monitor.example' }

  it("names the console's host for the cross-site check only from a trusted proxy", async () => {
    const trusted = await serverWith({ trustedProxies: ['127.0.0.1'] })
    expect(
      (await (await anonymous(trusted.baseUrl)).post('/z_security_check', { z_username: ADMIN.user, z_password: ADMIN.password }, proxied))
        .status
    ).toBe(302)
    const untrusted = await serverWith({})
    expect(
      (
        await (
          await anonymous(untrusted.baseUrl)
        ).post('/z_security_check', { z_username: ADMIN.user, z_password: ADMIN.password }, proxied)
      ).status
    ).toBe(403)
  })
})

describe('the collector behind a reverse proxy', () => {
  const post = (server: TestServer, password: string, address: string) =>
    postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), 'f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5'), {
      auth: `${COLLECTOR.user}:${password}`,
      headers: from(address)
    })

  it('throttles each agent a trusted proxy names, not the proxy', async () => {
    const server = await serverWith({ trustedProxies: ['127.0.0.1'] })
    for (let i = 0; i < 2; i++) expect((await post(server, 'wrong', '10.0.0.1')).status).toBe(401)
    expect((await post(server, COLLECTOR.password, '10.0.0.1')).status).toBe(429)
    const other = await post(server, COLLECTOR.password, '10.0.0.2')
    expect(other.status, other.body).toBe(200)
  })

  it('ignores X-Forwarded-For from others', async () => {
    const server = await serverWith({})
    for (let i = 0; i < 2; i++) expect((await post(server, 'wrong', '10.0.0.1')).status).toBe(401)
    expect((await post(server, COLLECTOR.password, '10.0.0.2')).status).toBe(429)
  })
})

describe('the access log behind a reverse proxy', () => {
  it('names the client a trusted proxy forwards, and the socket otherwise', async () => {
    const captured = capturedLog()
    const server = await serverWith({ trustedProxies: ['127.0.0.1'], accessLog: true, log: captured.log })
    await httpRequest(server.baseUrl, 'GET', '/health', undefined, from('10.0.0.9'))
    const untrusted = capturedLog()
    const other = await serverWith({ accessLog: true, log: untrusted.log })
    await httpRequest(other.baseUrl, 'GET', '/health', undefined, from('10.0.0.9'))
    await waitFor(
      'both access lines',
      () => captured.out().some((l) => l.includes('/health')) && untrusted.out().some((l) => l.includes('/health'))
    )
    expect(captured.out().join('\n')).toContain('access 10.0.0.9 GET /health 200')
    expect(untrusted.out().join('\n')).toContain('access 127.0.0.1 GET /health 200')
  })
})

describe('first-run setup behind a reverse proxy on the same machine', () => {
  it('is refused to a remote client the proxy names, and open to one on this machine', async () => {
    const server = await serverWith({ trustedProxies: ['127.0.0.1'], initAdmin: undefined, initCollector: undefined })
    const status = (headers: Record<string, string>) => httpRequest(server.baseUrl, 'GET', '/api/2/setup/status', undefined, headers)
    expect((await status(from('203.0.113.7'))).status).toBe(403)
    expect((await status(from('127.0.0.1'))).status).toBe(200)
  })
})
