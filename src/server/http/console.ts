// Serves the built console (out/renderer) with a strict Content-Security-Policy. Its page is served
// by the login routes at / and /index.csp to logged-in users; assets are public.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"
].join('; ')

export function withSecurityHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY).header('X-Content-Type-Options', 'nosniff')
}

export function readConsolePage(dir: string): string {
  const file = join(dir, 'index.html')
  if (!existsSync(file)) throw new Error(`console not found in ${dir}: run the build first`)
  return readFileSync(file, 'utf8')
}

export async function consoleAssets(app: FastifyInstance, opts: { dir: string }): Promise<void> {
  await app.register(fastifyStatic, {
    root: opts.dir,
    index: false,
    setHeaders: (res) => {
      res.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
      res.header('X-Content-Type-Options', 'nosniff')
    }
  })
}
