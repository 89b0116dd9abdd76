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

export function setSecurityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  response.setHeader('X-Content-Type-Options', 'nosniff')
  // Console URLs carry host ids and filters: no other site learns them from a link followed out.
  response.setHeader('Referrer-Policy', 'same-origin')
  // Answers are a user's view of hosts, sessions and settings: no browser or proxy keeps a copy. The
  // console's assets (content-hashed names) replace this with their own caching (http/console.ts).
  response.setHeader('Cache-Control', 'no-store')
}
