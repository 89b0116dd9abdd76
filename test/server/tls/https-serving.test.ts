// The server over HTTPS (issue 26): a client that trusts only the server's certificate reaches the
// console, the API and the collector; the answers carry HSTS and the session cookie is Secure; a renewed
// certificate is served without a restart, and a broken renewal keeps the old one.
import { X509Certificate } from 'node:crypto'
import { readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeSelfSignedCertificate } from '../../../src/server/tls/self-signed'
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from '../../../src/server/tls/tls-files'
import { CERTIFICATE_PATH } from '../../../src/shared/api/tls'
import { httpRequest } from '../../support/api-client'
import { capturedLog } from '../../support/captured-log'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { hostOfAgent } from '../../support/hosts'
import { httpsRequest } from '../../support/https-client'
import { ADMIN, COLLECTOR, startTestServer, type TestServer } from '../../support/in-process-server'
import { freePort } from '../../support/ports'
import { waitFor } from '../../support/wait'

const LOCAL = { dns: ['localhost'], ips: ['127.0.0.1'] }
const servers: TestServer[] = []
const folders: string[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stopAndClean()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

describe('--tls self-signed', () => {
  it('makes a certificate for this machine, serves it, keeps it across restarts and logs its fingerprint', async () => {
    const first = capturedLog()
    const server = await startTestServer({ tls: { selfSigned: true }, log: first.log })
    servers.push(server)
    const certFile = join(server.dataDir, SELF_SIGNED_CERT)
    const cert = readFileSync(certFile, 'utf8')
    const x509 = new X509Certificate(cert)
    expect(x509.subjectAltName).toContain('IP Address:127.0.0.1')
    expect(x509.subjectAltName).toContain('DNS:localhost')
    if (process.platform !== 'win32') expect(statSync(join(server.dataDir, SELF_SIGNED_KEY)).mode & 0o077).toBe(0)
    expect(first.out().join('\n')).toContain(x509.fingerprint256)
    expect(server.urls.every((url) => url.startsWith('https://'))).toBe(true)

    const health = await httpsRequest(`https://127.0.0.1:${server.port}/health`, cert)
    expect(health.status).toBe(200)
    expect(health.fingerprint).toBe(x509.fingerprint256)
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000')
    // The public download is the certificate, never the key.
    const download = await httpsRequest(`https://127.0.0.1:${server.port}${CERTIFICATE_PATH}`, cert)
    expect(download.status).toBe(200)
    expect(download.text).toBe(cert)
    expect(download.text).not.toContain('PRIVATE KEY')

    await server.close()
    const second = capturedLog()
    const again = await startTestServer({ tls: { selfSigned: true }, log: second.log, dataDir: server.dataDir })
    servers.push(again)
    expect(readFileSync(certFile, 'utf8')).toBe(cert)
    expect((await httpsRequest(`https://127.0.0.1:${again.port}/health`, cert)).fingerprint).toBe(x509.fingerprint256)
    expect(second.out().join('\n')).toContain(x509.fingerprint256)
  })

  it('sets the session cookie Secure and stores agent messages posted over HTTPS', async () => {
    const server = await startTestServer({ tls: { selfSigned: true } })
    servers.push(server)
    const cert = readFileSync(join(server.dataDir, SELF_SIGNED_CERT), 'utf8')
    const base = `https://127.0.0.1:${server.port}`
    const login = await httpsRequest(`${base}/z_security_check`, cert, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `z_username=${ADMIN.user}&z_password=${ADMIN.password}`
    })
    expect(login.status).toBe(302)
    const cookies = [login.headers['set-cookie'] ?? []].flat()
    expect(cookies.length).toBeGreaterThan(0)
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i)

    const posted = await httpsRequest(`${base}/collector`, cert, {
      method: 'POST',
      headers: { Authorization: basic(COLLECTOR.user, COLLECTOR.password), 'Content-Type': 'text/xml' },
      body: asAgent(fixture('02-status-heartbeat'), 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', 'tls-host')
    })
    expect(posted.status).toBe(200)
    expect(posted.headers['strict-transport-security']).toBe('max-age=31536000')
    expect(hostOfAgent(server.store, 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6')?.hostname).toBe('tls-host')
  })
})

describe('--http-port beside HTTPS', () => {
  it('serves only POST /collector in plain HTTP and redirects everything else to HTTPS', async () => {
    const httpPort = await freePort()
    const server = await startTestServer({ tls: { selfSigned: true }, httpPort })
    servers.push(server)
    const plain = `http://127.0.0.1:${httpPort}`
    const posted = await postCollector(plain, asAgent(fixture('02-status-heartbeat'), 'b1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', 'plain-host'), {
      auth: `${COLLECTOR.user}:${COLLECTOR.password}`
    })
    expect(posted.status).toBe(200)
    expect(hostOfAgent(server.store, 'b1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6')?.hostname).toBe('plain-host')
    expect(posted.headers['strict-transport-security']).toBeUndefined()

    const page = await httpRequest(plain, 'GET', '/index.csp?x=1')
    expect(page.status).toBe(308)
    expect(page.headers.location).toBe(`https://127.0.0.1:${server.port}/index.csp?x=1`)
    const login = await httpRequest(plain, 'POST', '/z_security_check', `z_username=${ADMIN.user}&z_password=${ADMIN.password}`, {
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    expect(login.status).toBe(308)
    expect(login.headers['set-cookie']).toBeUndefined()
    // A path that looks like another host stays a path on this one (its repeated slashes collapsed, as
    // M/Monit clients that build `base + "//" + path` need).
    expect((await httpRequest(plain, 'GET', '//evil.example/x')).headers.location).toBe(`https://127.0.0.1:${server.port}/evil.example/x`)
  })
})

describe('--tls-cert and --tls-key', () => {
  function pairFiles() {
    const dir = mkdtempSync(join(tmpdir(), 'overseer-tls-'))
    folders.push(dir)
    return { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') }
  }

  it('serves a renewed pair without a restart, and keeps the old one when the new files are broken', async () => {
    const files = pairFiles()
    const first = makeSelfSignedCertificate(LOCAL)
    writeFileSync(files.certFile, first.cert)
    writeFileSync(files.keyFile, first.key)
    const captured = capturedLog()
    const server = await startTestServer({ tls: files, tlsPollMs: 50, log: captured.log })
    servers.push(server)
    const url = `https://127.0.0.1:${server.port}/health`
    const firstPrint = new X509Certificate(first.cert).fingerprint256
    expect((await httpsRequest(url, first.cert)).fingerprint).toBe(firstPrint)

    const second = makeSelfSignedCertificate(LOCAL)
    writeFileSync(files.keyFile, second.key)
    writeFileSync(files.certFile, second.cert)
    const secondPrint = new X509Certificate(second.cert).fingerprint256
    await waitFor('the renewed certificate served', async () => {
      const answer = await httpsRequest(url, second.cert).catch(() => undefined)
      return answer?.fingerprint === secondPrint
    })

    const refusals = () => captured.err().filter((line) => line.includes('keeping the certificate served so far')).length
    const before = refusals()
    writeFileSync(files.certFile, 'not a certificate')
    await waitFor('the broken renewal reported', () => refusals() > before)
    expect((await httpsRequest(url, second.cert)).fingerprint).toBe(secondPrint)
  })

  it('refuses to start with a key of another certificate, saying so', async () => {
    const files = pairFiles()
    writeFileSync(files.certFile, makeSelfSignedCertificate(LOCAL).cert)
    writeFileSync(files.keyFile, makeSelfSignedCertificate(LOCAL).key)
    await expect(startTestServer({ tls: files })).rejects.toThrow(/is not the key of the certificate/)
  })
})
