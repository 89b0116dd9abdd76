// A webhook receiver on 127.0.0.1 that records every POST (the `webhook` channel's body, the
// AlertNotification) and answers as the test says: a status (with headers), or never.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AlertNotification } from '../../src/shared/api/alerts'

/** A status, a status with response headers (Retry-After, …), or 'hang' to never answer. */
export type ReceiverAnswer = number | 'hang' | { status: number; headers: Record<string, string> }

export interface Received {
  body: AlertNotification
  /** The body's bytes as received */
  raw: string
  /** The webhook's X-Overseer-Notification and X-Overseer-Signature headers */
  idHeader: string | undefined
  signature: string | undefined
  /** Date.now() when it arrived */
  at: number
  /** The status answered; 'hang' when the request was left without answer. */
  answer: number | 'hang'
}

export interface AlertReceiver {
  url: string
  received: Received[]
  /** The answer to the next requests (by how many came before). Default 200. */
  answerWith(answer: ReceiverAnswer | ((n: number) => ReceiverAnswer)): void
  close(): Promise<void>
}

export async function startAlertReceiver(): Promise<AlertReceiver> {
  const received: Received[] = []
  let answer: (n: number) => ReceiverAnswer = () => 200
  const hanging = new Set<ServerResponse>()
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const given = answer(received.length)
      const { status, headers } = typeof given === 'object' ? given : { status: given, headers: {} }
      const raw = Buffer.concat(chunks).toString()
      received.push({
        body: JSON.parse(raw),
        raw,
        idHeader: req.headers['x-overseer-notification'] as string | undefined,
        signature: req.headers['x-overseer-signature'] as string | undefined,
        at: Date.now(),
        answer: status
      })
      if (status === 'hang') hanging.add(res)
      else res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(status < 300 ? 'ok' : `refused with ${status}`)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith: (a) => {
      answer = typeof a === 'function' ? a : () => a
    },
    close: () =>
      new Promise((done) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}
