// A real HTTP server on 127.0.0.1 standing in for Slack, Discord, ntfy, Gotify, Telegram or a webhook
// receiver: it records every request (method, path, headers, raw body) and answers as told.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  /** Path and query, as sent */
  path: string
  /** Lower-cased names, as node:http gives them */
  headers: IncomingHttpHeaders
  /** The exact body bytes */
  body: Buffer
  text: string
  /** The body through JSON.parse, untyped as it gives it: each test reads the fields its channel sends. */
  json: () => ReturnType<typeof JSON.parse>
}

export type Responder = (req: ReceivedRequest, res: ServerResponse) => void

export interface Receiver {
  /** http://127.0.0.1:<port> */
  url: string
  port: number
  requests: ReceivedRequest[]
  /** Answer the next requests this way. */
  respond: (responder: Responder) => void
  close: () => Promise<void>
}

/** Answer with a status, a body (objects as JSON) and headers. */
export function reply(status: number, body: unknown = '', headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'
    res.writeHead(status, { 'Content-Type': type, ...headers })
    res.end(status === 204 ? undefined : text)
  }
}

/** Never answer (the client's signal must end it). */
export const hang: Responder = () => undefined

/** Send the status line and headers, then never the rest of the body. */
export const hangAfterHeaders: Responder = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' })
  res.write('partial')
}

export async function startReceiver(responder: Responder = reply(200, 'ok')): Promise<Receiver> {
  let current = responder
  const requests: ReceivedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const text = body.toString('utf8')
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        text,
        json: () => JSON.parse(text)
      }
      requests.push(received)
      current(received, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond: (r) => {
      current = r
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A loopback URL where nothing listens: a port just bound and released. */
export async function refusedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
