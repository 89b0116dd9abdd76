// Self-signed certificates made by Debian's openssl CLI, as an agent's httpd uses them (agent protocol
// §5.1): key and certificate in one pemfile, plus the SHA-256 fingerprint node:tls reports for it.
import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface SelfSigned {
  key: Buffer
  cert: Buffer
  /** Key and certificate in one file (mode 0600, as Monit requires for `pemfile`). */
  pemfile: string
  /** `AB:CD:…`, as X509Certificate.fingerprint256 and tls's getPeerX509Certificate() give it. */
  sha256: string
}

/** A new key pair and certificate for `cn` in a fresh temporary directory (valid ten years: tests never depend on the date). */
export function selfSigned(cn = 'monit-agent'): SelfSigned {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-cert-'))
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  execFileSync(
    '/usr/bin/openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650', '-subj', `/CN=${cn}`].concat([
      '-keyout',
      keyFile,
      '-out',
      certFile
    ]),
    { stdio: 'ignore' }
  )
  const key = fs.readFileSync(keyFile)
  const cert = fs.readFileSync(certFile)
  const pemfile = path.join(dir, 'agent.pem')
  fs.writeFileSync(pemfile, Buffer.concat([key, cert]), { mode: 0o600 })
  return { key, cert, pemfile, sha256: new X509Certificate(cert).fingerprint256 }
}
