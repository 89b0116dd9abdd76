// Headers every answer carries — API JSON, login page, console assets, errors and the collector's own
// answers alike — set on the raw Node response before anything else sees the request (http/app.ts).
// The policy is the console's: the React app loads only its own scripts; nothing may frame any page.
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
}
