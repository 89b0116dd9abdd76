// Serves the built console (out/renderer), under the strict Content-Security-Policy every answer has
// (http/security-headers.ts). Its page is served by the login routes at / and /index.csp to logged-in
// users; assets are public.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

export function readConsolePage(dir: string): string {
  const file = join(dir, 'index.html')
  if (!existsSync(file)) throw new Error(`console not found in ${dir}: run the build first`)
  return readFileSync(file, 'utf8')
}

export async function consoleAssets(app: FastifyInstance, opts: { dir: string }): Promise<void> {
  await app.register(fastifyStatic, { root: opts.dir, index: false })
}
