// The HTTP application: every route of the server on one fastify instance.
import fastify, { type FastifyInstance } from 'fastify'
import type { BasicAuthenticator } from '../auth/basic-auth'
import { collectorRoutes, type CollectorLimits } from '../collector/route'
import type { Ingest } from '../collector/ingest'
import type { Logger } from '../log'
import type { Store } from '../store/store'
import { consoleRoutes } from './console'
import { installErrorHandling } from './errors'

export interface AppDeps {
  store: Store
  ingest: Ingest
  authenticator: BasicAuthenticator
  log: Logger
  collectorLimits: CollectorLimits
  version: string
  /** The built console (out/renderer); not served when absent. */
  consoleDir?: string
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = fastify({ logger: false, return503OnClosing: true })
  installErrorHandling(app, deps.log)
  // An unauthenticated liveness probe for supervisors and tests; it reveals nothing but the version.
  app.get('/health', async () => ({ status: 'ok', version: deps.version }))
  await app.register(collectorRoutes, { ...deps, limits: deps.collectorLimits })
  if (deps.consoleDir) await app.register(consoleRoutes, { dir: deps.consoleDir })
  return app
}
