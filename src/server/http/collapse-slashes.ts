// Some clients build their URLs as base + "//" + path (compat CLI-3): //index.csp, //z_security_check,
// //status/hosts/list, //collector. Their paths are served as if every run of slashes were one. Done
// once, on the raw request, before the collector and fastify route it: the collapsed path then meets
// exactly the checks of the direct one, and no route can be reached under a second spelling.
import type { IncomingMessage } from 'node:http'

/** Rewrites `request.url` with its path's repeated slashes collapsed; the query string is left as sent. */
export function collapseSlashes(request: IncomingMessage): void {
  const url = request.url
  // Only origin-form URLs: an absolute one (GET http://host/… from a proxy client) has its own "//".
  if (url === undefined || !url.startsWith('/') || !url.includes('//')) return
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  if (path.includes('//')) request.url = path.replace(/\/{2,}/g, '/') + (query < 0 ? '' : url.slice(query))
}
