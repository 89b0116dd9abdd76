// Serves the built console (out/renderer) with a strict Content-Security-Policy.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"
].join('; ')

export async function consoleRoutes(app: FastifyInstance, opts: { dir: string }): Promise<void> {
  if (!existsSync(join(opts.dir, 'index.html'))) throw new Error(`console not found in ${opts.dir}: run the build first`)
  await app.register(fastifyStatic, {
    root: opts.dir,
    setHeaders: (res) => {
      res.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
      res.header('X-Content-Type-Options', 'nosniff')
    }
  })
}
