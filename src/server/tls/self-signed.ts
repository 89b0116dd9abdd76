// The certificate `--tls self-signed` makes on first start and keeps in the data folder: agents pin it
// (Monit's cacertificatefile), so it must not change from one start to the next. node:crypto makes the key;
// node-forge writes the certificate, which node:crypto cannot.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { networkInterfaces, hostname } from 'node:os'
import forge from 'node-forge'

/**
 * Ten years: agents keep a copy of this very certificate, so renewing it means visiting every agent. A
 * pinned certificate is trusted for what it is, not for its dates; a lost key is replaced by deleting the
 * two files (a new certificate on the next start) and handing agents the new one.
 */
export const SELF_SIGNED_VALIDITY_YEARS = 10

export interface CertificateNames {
  dns: string[]
  ips: string[]
}

/** The names agents and browsers may reach this machine by: its host name, localhost and every address. */
export function machineNames(): CertificateNames {
  const ips = new Set(['127.0.0.1', '::1'])
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? []) if (!address.internal) ips.add(address.address.split('%')[0])
  const dns = new Set([hostname(), 'localhost'].filter((name) => name !== ''))
  return { dns: [...dns], ips: [...ips] }
}

export interface PemPair {
  cert: string
  key: string
}

export function makeSelfSignedCertificate(names: CertificateNames, now = new Date()): PemPair {
  // RSA 2048: every Monit build's OpenSSL and every browser accept it; forge signs with nothing newer.
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' }
  })
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKey)
  // Positive (leading 0 bit) and unique: browsers refuse two certificates of one issuer with one serial.
  cert.serialNumber = '7' + randomBytes(15).toString('hex')
  cert.validity.notBefore = now
  cert.validity.notAfter = new Date(now.getTime())
  cert.validity.notAfter.setFullYear(now.getFullYear() + SELF_SIGNED_VALIDITY_YEARS)
  const subject = [
    { name: 'commonName', value: names.dns[0] ?? 'localhost' },
    { name: 'organizationName', value: 'Overseer' }
  ]
  cert.setSubject(subject)
  cert.setIssuer(subject)
  cert.setExtensions([
    // A CA of itself, so that OpenSSL (Monit's verify: enable) accepts it as the trust anchor it is given.
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))]
    }
  ])
  cert.sign(forge.pki.privateKeyFromPem(keys.privateKey), forge.md.sha256.create())
  return { cert: forge.pki.certificateToPem(cert), key: keys.privateKey }
}
