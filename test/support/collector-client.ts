// Posts to /collector the way a Monit agent does: one request per new connection.
import { request } from 'node:http'

export interface PostResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface PostOptions {
  auth?: string
  gzip?: boolean
  method?: string
  /** Sent verbatim (a URL string would resolve `..` and the like first); default /collector. */
  path?: string
  headers?: Record<string, string>
  /** Source address of the connection, e.g. 127.0.0.2 to post as another machine would. */
  localAddress?: string
}

export function postCollector(baseUrl: string, body: Buffer | string, opts: PostOptions = {}): Promise<PostResult> {
  const payload = typeof body === 'string' ? Buffer.from(body) : body
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/xml',
    'Content-Length': payload.length,
    'User-Agent': 'Monit/5.33.0',
    ...opts.headers
  }
  if (opts.auth !== undefined) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`
  if (opts.gzip) headers['Content-Encoding'] = 'gzip'
  return new Promise((resolve, reject) => {
    const req = request(
      baseUrl,
      {
        path: opts.path ?? '/collector',
        method: opts.method ?? 'POST',
        headers,
        agent: false,
        // Idle time allowed: a storm of posts on a loaded machine (the whole suite beside it, PostgreSQL)
        // waits its turn at the ingest thread; a hung server is still caught.
        timeout: 30_000,
        localAddress: opts.localAddress
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
      }
    )
    req.on('timeout', () => req.destroy(new Error('collector request timed out')))
    req.on('error', reject)
    req.end(payload)
  })
}
