// The desktop window trusts its own server's certificate by the fingerprint the server announced, and
// nothing else on the console's host (issue 26): real certificates from the server's generator.
import { X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ACCEPT, CHROMIUM_DECIDES, ownCertificateVerifier, REFUSE } from '../../src/main/own-certificate'
import { makeSelfSignedCertificate } from '../../src/server/tls/self-signed'

const names = { dns: ['localhost'], ips: ['127.0.0.1'] }
const own = makeSelfSignedCertificate(names).cert
const other = makeSelfSignedCertificate(names).cert

function verdict(verify: ReturnType<typeof ownCertificateVerifier>, hostname: string, pem: string): number {
  let result: number | undefined
  verify({ hostname, certificate: { data: pem } }, (answer) => (result = answer))
  return result!
}

describe('the window trusts its own server certificate only', () => {
  const announced = new X509Certificate(own).fingerprint256
  const verify = ownCertificateVerifier('127.0.0.1', () => announced)

  it('accepts the certificate the server announced', () => {
    expect(verdict(verify, '127.0.0.1', own)).toBe(ACCEPT)
  })

  it('refuses any other certificate for the console host, self-signed or not', () => {
    expect(verdict(verify, '127.0.0.1', other)).toBe(REFUSE)
    expect(verdict(verify, '127.0.0.1', 'not a certificate')).toBe(REFUSE)
  })

  it('refuses everything on the console host before the server announced a certificate', () => {
    expect(
      verdict(
        ownCertificateVerifier('127.0.0.1', () => undefined),
        '127.0.0.1',
        own
      )
    ).toBe(REFUSE)
  })

  it('leaves other hosts to Chromium', () => {
    expect(verdict(verify, 'example.org', other)).toBe(CHROMIUM_DECIDES)
  })
})
