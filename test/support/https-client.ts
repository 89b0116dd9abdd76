// An HTTPS client that trusts exactly one certificate (the server's own), as a pinned agent does: a
// server serving any other certificate fails the request.
import { request } from 'node:https'
import type { TLSSocket } from 'node:tls'

export interface HttpsAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** SHA-256 fingerprint of the certificate the server presented. */
  fingerprint: string
}

export function httpsRequest(
  url: string,
  ca: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers, ca, agent: false, timeout: 10_000 }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString(), fingerprint })
      )
    })
    req.on('timeout', () => req.destroy(new Error(`${url} timed out`)))
    req.on('error', reject)
    req.end(opts.body)
  })
}
