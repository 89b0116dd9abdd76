// The window trusts the certificate of the server this app started, and no other: the server announces
// its SHA-256 fingerprint in its ready message, and a certificate for the console's host is accepted
// only when it is that one (Chromium would refuse a self-signed certificate, or accept any a CA signed).
import { X509Certificate } from 'node:crypto'

/** What Electron's setCertificateVerifyProc passes (the parts used here). */
export interface CertificateCheck {
  hostname: string
  /** PEM, as Electron's Certificate.data. */
  certificate: { data: string }
}

/** Electron's answers: accept, refuse, or leave the decision to Chromium. */
export const ACCEPT = 0
export const REFUSE = -2
export const CHROMIUM_DECIDES = -3

/**
 * The verify procedure for `session.setCertificateVerifyProc`. `pinned()` is the fingerprint the server
 * announced (undefined while it is starting, or without TLS): the console's host is then refused.
 */
export function ownCertificateVerifier(consoleHost: string, pinned: () => string | undefined) {
  return (request: CertificateCheck, callback: (result: number) => void): void => {
    if (request.hostname !== consoleHost) return callback(CHROMIUM_DECIDES)
    const expected = pinned()
    callback(expected !== undefined && fingerprintOf(request.certificate.data) === expected ? ACCEPT : REFUSE)
  }
}

function fingerprintOf(pem: string): string | undefined {
  try {
    return new X509Certificate(pem).fingerprint256
  } catch {
    return undefined
  }
}
