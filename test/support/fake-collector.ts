// A minimal stand-in for the collector, for tests that drive real Monit agents (agent protocol §7.6, docs/agent-protocol.md).
import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

export interface CollectedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The body as text, gunzipped when the request had `Content-Encoding: gzip`. */
  body: string
  /** The root `<monit id="…">` of the payload, if there is one. */
  monitId: string | undefined
  /** `Date.now()` when the whole body had arrived. */
  receivedAt: number
  /** The status answered; Monit retries refused events, so one event can be recorded several times. */
  status: number
}

export interface FakeCollector {
  readonly port: number
  /** Every request, in arrival order. */
  readonly requests: CollectedRequest[]
  /** Status of the next answers; may be changed at any time (e.g. 500 to make agents queue events). */
  status: number
  /** `Server` header of the next answers; `mmonit/3.7.0` makes agents switch to gzip (agent protocol §3.5). */
  serverHeader: string | undefined
  /** The collector URL for `set mmonit`, with the credentials embedded when given. */
  url(user?: string, password?: string): string
  /** Requests whose payload carries this agent id, in arrival order. */
  from(monitId: string): CollectedRequest[]
  close(): Promise<void>
}

export async function startFakeCollector(opts: { status?: number; serverHeader?: string } = {}): Promise<FakeCollector> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      let body: string
      let status = collector.status
      try {
        body = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')
      } catch {
        // A broken gzip body is recorded as received and refused, so a test sees both.
        body = raw.toString('utf8')
        status = 400
      }
      collector.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        monitId: /<monit id="([^"]*)"/.exec(body)?.[1],
        receivedAt: Date.now(),
        status
      })
      const headers: http.OutgoingHttpHeaders = { 'Content-Length': 0, Connection: 'close' }
      if (collector.serverHeader !== undefined) headers.Server = collector.serverHeader
      res.writeHead(status, headers)
      res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port

  const collector: FakeCollector = {
    port,
    requests: [],
    status: opts.status ?? 200,
    serverHeader: opts.serverHeader,
    url: (user, password) =>
      `http://${user === undefined ? '' : `${user}${password === undefined ? '' : `:${password}`}@`}127.0.0.1:${port}/collector`,
    from: (monitId) => collector.requests.filter((r) => r.monitId === monitId),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
  }
  return collector
}
