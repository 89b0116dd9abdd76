// Bodies are small until a session admits more. Fastify reads a body before any handler runs, so a
// large limit on a route lets anyone make the server buffer that much per connection: the server's
// limit (the login form, setup, unknown paths) is the small public one, only the session-gated API
// endpoints get the larger one, and even there a body that could pass the small limit is read only
// once the session is known to be good.
import type { FastifyInstance } from 'fastify'
import { endpointsByUrl, type ApiEndpoint } from './api'
import type { HttpLimits } from './http-limits'
import type { SessionGate } from './session-gate'

/** Register before the routes: the hook sets each gated route's limit as it is added. */
export function limitBodies(app: FastifyInstance, gate: SessionGate, endpoints: readonly ApiEndpoint[], limits: HttpLimits): void {
  const gated = new Set([...endpointsByUrl(endpoints)].filter(([, e]) => e.access !== 'public').map(([url]) => url))
  app.addHook('onRoute', (route) => {
    if (gated.has(route.url)) route.bodyLimit = limits.bodyBytes
  })
  app.addHook('preParsing', (request, reply, payload, done) => {
    const { url } = request.routeOptions
    if (url !== undefined && gated.has(url) && mayExceed(request.headers, limits.publicBodyBytes)) {
      // Without a session this sends the login page the handler would have sent: Node then discards the
      // body as it comes, within the request timeout, instead of fastify buffering it.
      gate.caller(request, reply)
    }
    done(null, payload)
  })
}

function mayExceed(headers: { 'content-length'?: string; 'transfer-encoding'?: string }, bytes: number): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > bytes
}
