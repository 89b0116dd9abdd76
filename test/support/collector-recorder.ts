// An HTTP relay between Monit agents and the server's collector that keeps, per message, the events it
// carried and the server's answer: what the server acknowledged (200) is what the agent dropped from its
// queue, so every event of an acknowledged message must be in the database (issue 29: 0 acknowledged
// messages lost). Everything else passes unchanged, both ways.
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

/** One event as Monit sends it, keyed as the event table de-duplicates it (service, class, state, time). */
export interface SentEvent {
  service: string
  class: number
  state: number
  collectedUsec: number
}

export interface RelayedMessage {
  status: number
  events: SentEvent[]
}

export interface CollectorRecorder {
  port: number
  messages: RelayedMessage[]
  /** The events of the messages the server answered 200. */
  acknowledgedEvents(): SentEvent[]
  close(): Promise<void>
}

const EVENT = /<event>([\s\S]*?)<\/event>/g
const field = (xml: string, name: string) => new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([^<\\]]*)`).exec(xml)?.[1] ?? ''

export function eventsOf(body: string): SentEvent[] {
  return [...body.matchAll(EVENT)].map(([, xml]) => ({
    service: field(xml, 'service'),
    class: Number(field(xml, 'id')),
    state: Number(field(xml, 'state')),
    collectedUsec: Number(field(xml, 'collected_sec')) * 1_000_000 + Number(field(xml, 'collected_usec'))
  }))
}

/** The message's XML: agents gzip their messages once the server said it takes them so. */
function xmlOf(body: Buffer, encoding: string | undefined): string {
  return (encoding === 'gzip' ? gunzipSync(body) : body).toString('latin1')
}

export async function startCollectorRecorder(serverPort: number): Promise<CollectorRecorder> {
  const messages: RelayedMessage[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const forward = http.request(
        { host: '127.0.0.1', port: serverPort, method: req.method, path: req.url, headers: req.headers, agent: false },
        (answer) => {
          messages.push({ status: answer.statusCode ?? 0, events: eventsOf(xmlOf(body, req.headers['content-encoding'])) })
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      // No answer from the server: the agent keeps its message, as after any failed delivery.
      forward.on('error', () => res.writeHead(502).end())
      forward.end(body)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    messages,
    acknowledgedEvents: () => messages.filter((m) => m.status === 200).flatMap((m) => m.events),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
