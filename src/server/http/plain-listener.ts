// The plain-HTTP listener kept beside HTTPS for agents that cannot do TLS (--http-port): it serves only
// POST /collector, and sends everything else to the HTTPS address, so that no browser logs in in clear.
// Agents posting here still send their credentials in clear: the weaker fallback (docs/agents.md).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http'
import { isCollectorUrl } from '../collector/route'
import { collapseSlashes } from './collapse-slashes'
import { setSecurityHeaders } from './security-headers'

export function plainListener(
  options: ServerOptions,
  collector: RequestListener,
  httpsPort: () => number,
  logAccess?: RequestListener
): Server {
  return createServer(options, (request, response) => {
    logAccess?.(request, response)
    setSecurityHeaders(response)
    collapseSlashes(request)
    if (isCollectorUrl(request.url)) return collector(request, response)
    const location = httpsLocation(request, httpsPort())
    if (!location) {
      response.writeHead(400, { 'Content-Type': 'application/json' })
      return response.end(JSON.stringify({ error: 'this address serves only the collector: use HTTPS' }))
    }
    // 308 keeps the method and body: a POST that arrives here is redirected as a POST.
    response.writeHead(308, { Location: location }).end()
  })
}

/** The same host and path on the HTTPS port; the path appended as it is, so `//other.host` stays a path. */
function httpsLocation(request: IncomingMessage, port: number): string | undefined {
  const host = request.headers.host
  if (!host) return undefined
  try {
    const origin = new URL(`https://${host}`)
    origin.port = String(port)
    const path = request.url?.startsWith('/') ? request.url : '/'
    return origin.origin + path
  } catch {
    return undefined
  }
}
