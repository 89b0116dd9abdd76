// The access log (--access-log on), as M/Monit keeps one: a line per answered request, agents' reports
// included. The path goes without its query (a query can carry a token); no header or body is logged.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ServerLogger } from '../log'

/** `clientAddress`: the socket's, or the client a trusted reverse proxy names (http/trusted-proxies.ts). */
export function accessLog(
  log: ServerLogger,
  clientAddress: (request: IncomingMessage) => string = (request) => request.socket.remoteAddress ?? '-'
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const started = performance.now()
    response.once('close', () => {
      const entry = {
        client: clientAddress(request) || '-',
        method: request.method ?? '-',
        path: (request.url ?? '').split('?')[0],
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
        // The client went away first (a live stream left, a download stopped).
        unfinished: !response.writableFinished
      }
      const unfinished = entry.unfinished ? ' unfinished' : ''
      log.info(entry, `access ${entry.client} ${entry.method} ${entry.path} ${entry.status}${unfinished} ${entry.ms} ms`)
    })
  }
}
