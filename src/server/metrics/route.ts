// GET /metrics: Prometheus' scrape target, behind HTTP Basic auth or an API token (`Authorization: Bearer`,
// auth/api-tokens.ts): scrapers hold no session cookie.
import type { Server } from 'node:http'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Permission } from '../../shared/codes'
import { bearerToken, invalidTokenError, type ApiTokenService } from '../auth/api-tokens'
import { Refused, Throttled, type BasicAuthenticator } from '../auth/basic-auth'
import { holdsAnywhere, viewableHostIds, type Principal } from '../domain/permissions'
import { HttpError } from '../http/errors'
import { tooManyFailures } from '../web/too-many-failures'
import type { Store } from '../store/store'
import type { CollectorStats } from './collector-stats'
import { CONTENT_TYPE, renderExposition } from './exposition'
import { heldFamilies, refusalFamilies, selfFamilies, stateFamilies, storageFamilies } from './families'
import type { StorageHealth } from './storage-health'
import type { DatabaseWaits } from './database-waits'
import type { RefusedAgents } from '../collector/refused-agents'

export interface MetricsDeps {
  store: Store
  authenticator: BasicAuthenticator
  apiTokens: ApiTokenService
  collectorStats: CollectorStats
  storage: StorageHealth
  /** Off: /metrics answers 404, not the login page that unknown paths get. */
  metricsEnabled: boolean
  /** Bytes of collector bodies held now (collector/bytes-in-flight.ts). */
  collectorBodyBytes: () => number
  refusedAgents: RefusedAgents
  databaseWaits?: DatabaseWaits
}

const REALM = 'Basic realm="metrics"'

export async function metricsRoutes(app: FastifyInstance, deps: MetricsDeps): Promise<void> {
  const repository = deps.store.metrics
  app.get('/metrics', async (request, reply) => {
    if (!deps.metricsEnabled) throw new HttpError(404, 'metrics are disabled on this server')
    const principal = await authenticated(request, deps)
    if (!holdsAnywhere(principal, Permission.View)) throw new HttpError(403, `user ${principal.uname} may view no host`)
    const visible = viewableHostIds(principal)
    const families = [
      ...stateFamilies(repository.hosts(visible), repository.services(visible)),
      ...selfFamilies(deps.collectorStats, deps.store.sql.databaseBytes()),
      ...storageFamilies(deps.storage, deps.databaseWaits),
      ...refusalFamilies(deps.refusedAgents),
      ...heldFamilies(await openConnections(request.server.server), deps.collectorBodyBytes())
    ]
    return reply.header('Content-Type', CONTENT_TYPE).header('Cache-Control', 'no-store').send(renderExposition(families))
  })
}

/** The caller of an API token, or of Basic credentials (throttled like the login form). */
async function authenticated(request: FastifyRequest, deps: MetricsDeps): Promise<Principal> {
  const token = bearerToken(request.headers.authorization)
  if (token !== undefined) {
    const holder = deps.apiTokens.authenticate(token)
    if (!holder) throw invalidTokenError()
    return holder.principal
  }
  const principal = await deps.authenticator.authenticate(request.headers.authorization, request.ip)
  if (principal instanceof Throttled) throw tooManyFailures(principal.retryAfterSec, { 'WWW-Authenticate': REALM })
  if (principal instanceof Refused) throw new HttpError(401, 'valid credentials are required', { 'WWW-Authenticate': REALM })
  return principal
}

function openConnections(server: Server): Promise<number> {
  return new Promise((done) => server.getConnections((err, count) => done(err ? 0 : count)))
}
