// Headers every answer carries — API JSON, login page, console assets, errors and the collector's own
// answers alike — set on the raw Node response before anything else sees the request (http/app.ts).
// The policy is the console's: the React app loads only its own scripts; nothing may frame any page,
// nothing is cached, no other site is told where a link was followed from.
import type { ServerResponse } from 'node:http'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join('; ')

/** HSTS: a year, sent only on answers that came over HTTPS (a browser ignores it over plain HTTP anyway). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000'

/** `https`: the request came over TLS, ours or a trusted proxy's (http/trusted-proxies.ts). */
export function setSecurityHeaders(response: ServerResponse, https = false): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  response.setHeader('X-Content-Type-Options', 'nosniff')
  // Console URLs carry host ids and filters: no other site learns them from a link followed out.
  response.setHeader('Referrer-Policy', 'same-origin')
  // Answers are a user's view of hosts, sessions and settings: no browser or proxy keeps a copy. The
  // console's assets (content-hashed names) replace this with their own caching (http/console.ts).
  response.setHeader('Cache-Control', 'no-store')
  // Once seen, the browser goes to this host over HTTPS only: no first request in clear to intercept.
  if (https) response.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY)
}
