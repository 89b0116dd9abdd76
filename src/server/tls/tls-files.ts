// Where the server's certificate and key come from (--tls-cert/--tls-key, or --tls self-signed), how
// they are read and checked, and how a renewed pair is picked up without a restart.
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { existsSync, readFileSync, unwatchFile, watchFile, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSecureContext } from 'node:tls'
import { privateFiles } from '../store/private-files'
import { machineNames, makeSelfSignedCertificate, type PemPair } from './self-signed'

export type TlsSource = { selfSigned: true } | { selfSigned?: false; certFile: string; keyFile: string }

export interface TlsFiles {
  certFile: string
  keyFile: string
}

export const SELF_SIGNED_CERT = 'tls-certificate.pem'
export const SELF_SIGNED_KEY = 'tls-key.pem'

/** The files to serve; for --tls self-signed, made in the data folder when missing and kept after. */
export function tlsFilesOf(source: TlsSource, dataDir: string): TlsFiles & { made: boolean } {
  if (!source.selfSigned) return { certFile: source.certFile, keyFile: source.keyFile, made: false }
  const files = { certFile: join(dataDir, SELF_SIGNED_CERT), keyFile: join(dataDir, SELF_SIGNED_KEY) }
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return { ...files, made: false }
  const pair = makeSelfSignedCertificate(machineNames())
  writeFileSync(files.keyFile, pair.key, { mode: 0o600 })
  privateFiles(files.keyFile)
  writeFileSync(files.certFile, pair.cert)
  return { ...files, made: true }
}

export interface LoadedTls extends PemPair {
  /** SHA-256 of the certificate (DER), as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint: string
}

/** Reads and checks a pair: a clear error for a file that is not PEM, or a key of another certificate. */
export function loadTls(files: TlsFiles): LoadedTls {
  const cert = readPem(files.certFile, 'certificate')
  const key = readPem(files.keyFile, 'key')
  let x509: X509Certificate
  try {
    x509 = new X509Certificate(cert)
  } catch (err) {
    throw new Error(`${files.certFile} holds no PEM certificate: ${(err as Error).message}`, { cause: err })
  }
  let matches: boolean
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key))
  } catch (err) {
    throw new Error(`${files.keyFile} holds no PEM private key: ${(err as Error).message}`, { cause: err })
  }
  if (!matches) throw new Error(`${files.keyFile} is not the key of the certificate in ${files.certFile}`)
  createSecureContext({ cert, key }) // what OpenSSL itself refuses (a key too weak for its security level)
  return { cert, key, fingerprint: x509.fingerprint256 }
}

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new Error(`cannot read the TLS ${what} ${file}: ${(err as Error).message}`, { cause: err })
  }
}

/**
 * Calls `onPair` with each new good pair once either file changes (a renewal by certbot or the like);
 * `onError` with why a changed pair cannot be used, the old one staying in service. Polled: fs.watch
 * misses files replaced by rename on some systems. Returns the function that stops watching.
 */
export function watchTls(
  files: TlsFiles,
  intervalMs: number,
  onPair: (loaded: LoadedTls) => void,
  onError: (err: Error) => void
): () => void {
  const reload = (current: { mtimeMs: number }, previous: { mtimeMs: number }) => {
    if (current.mtimeMs === previous.mtimeMs) return
    let loaded: LoadedTls
    try {
      loaded = loadTls(files)
    } catch (err) {
      return onError(err as Error)
    }
    onPair(loaded)
  }
  for (const file of [files.certFile, files.keyFile]) watchFile(file, { interval: intervalMs, persistent: false }, reload)
  return () => {
    for (const file of [files.certFile, files.keyFile]) unwatchFile(file, reload)
  }
}
