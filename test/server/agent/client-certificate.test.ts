// Certificate pinning in the agent client: the fingerprint of what the agent presents is reported, a
// pinned one is required, and a different one ends the connection before a byte of the request (with
// its Authorization header) is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentError } from '../../../src/server/agent/client'
import { AgentClient, CertificateChangedError } from '../../../src/server/agent/client'
import { selfSigned, type SelfSigned } from '../../support/certificates'
import { tlsRecorder, type TlsRecorder } from '../../support/tls-recorder'

let agentCert: SelfSigned
let otherCert: SelfSigned
let agent: TlsRecorder

const client = (certificateSha256?: string) =>
  new AgentClient({ host: '127.0.0.1', port: agent.port, ssl: true, user: 'admin', password: 'adminpw', certificateSha256 })

beforeAll(async () => {
  agentCert = selfSigned('agent')
  otherCert = selfSigned('agent')
  agent = await tlsRecorder(agentCert)
})

afterAll(async () => {
  await agent?.close()
})

describe('agent certificate pinning', () => {
  it('reports the fingerprint of the certificate presented when none is pinned (trust on first use)', async () => {
    const c = client()
    await c.ping()
    expect(c.peerCertificateSha256).toBe(agentCert.sha256)
    expect(c.peerCertificateSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  })

  it('calls the agent whose certificate is the pinned one', async () => {
    const c = client(agentCert.sha256)
    await c.ping()
    expect(agent.connections.at(-1)?.received).toContain(`Authorization: Basic ${Buffer.from('admin:adminpw').toString('base64')}`)
  })

  it('refuses another certificate before sending anything', async () => {
    const before = agent.connections.length
    const c = client(otherCert.sha256)
    const err = await c.ping().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(CertificateChangedError)
    expect((err as AgentError).kind).toBe('certificate-changed')
    expect((err as CertificateChangedError).presentedSha256).toBe(agentCert.sha256)
    expect((err as AgentError).message).toBe(
      `the agent at 127.0.0.1:${agent.port} presented another certificate (SHA-256 ${agentCert.sha256}) than the one pinned ` +
        `(SHA-256 ${otherCert.sha256}): nothing was sent to it; if the agent got a new certificate, an administrator must accept it in the host editor`
    )
    expect(c.peerCertificateSha256).toBe(agentCert.sha256)
    // The connection closed with nothing written on it after the handshake.
    expect(agent.connections.length).toBe(before + 1)
    const connection = agent.connections[before]
    await connection.closed
    expect(connection.received).toBe('')
  })
})
