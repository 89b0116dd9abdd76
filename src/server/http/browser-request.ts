// What a request's headers say about the browser behind it. Browsers send Origin on every POST and
// Sec-Fetch-Site to secure and local origins; M/Monit's API clients (scripts) send neither (compat CLI-2).
// Not Sec-Fetch-Mode: Node's own fetch sends that one too.
import type { FastifyRequest } from 'fastify'

/** True when the request carries a header only browsers send. */
export function fromBrowser(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined
}

/**
 * True for a request a browser made: one with Origin or Sec-Fetch-Site, or a navigation, on which browsers
 * send Upgrade-Insecure-Requests even over plain HTTP, where they send no Sec-Fetch-Site. A login by GET
 * (compat CLI-2) is a script's; refusing it to browsers keeps a link or a frame on another site from
 * logging a visitor in to an account of the attacker's. Other requests a page can make by GET (an image)
 * carry no cookie of ours and may not set one (SameSite=Lax).
 */
export function madeByBrowser(request: FastifyRequest): boolean {
  return fromBrowser(request) || request.headers['upgrade-insecure-requests'] !== undefined
}

/**
 * True when the browser says another site made the request (a page forging a login or logout). Sec-Fetch-Site
 * decides when sent; else Origin must name the host the request was sent to (Host, or X-Forwarded-Host
 * from a trusted reverse proxy, fastify's request.host: a cross-site form cannot set either). Sibling sites
 * (same-site) are others too.
 */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  if (site !== undefined) return site !== 'same-origin' && site !== 'none'
  const origin = request.headers.origin
  if (origin === undefined) return false
  const hosts = [request.host, request.headers.host]
  return !hosts.some((host) => host !== undefined && sameHost(origin, host.trim()))
}

function sameHost(origin: string, host: string): boolean {
  try {
    const from = new URL(origin) // "null" (a sandboxed or opaque origin) throws: another site
    return from.host === new URL(`${from.protocol}//${host}`).host
  } catch {
    return false
  }
}
