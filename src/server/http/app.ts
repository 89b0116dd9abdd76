// The HTTP application: every route of the server on one fastify instance.
import type { OidcClient } from '../auth/oidc-client'
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import fastifyCookie from '@fastify/cookie'
import fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { ApiTokenService } from '../auth/api-tokens'
import type { BasicAuthenticator } from '../auth/basic-auth'
import type { LoginThrottle } from '../auth/login-throttle'
import type { Principals } from '../auth/principals'
import type { SessionService } from '../auth/sessions'
import type { CollectorLimits } from '../collector/request-body'
import type { MessageCollector } from '../collector/ingest-thread'
import { collectorHandler, isCollectorUrl } from '../collector/route'
import type { ServerLogger } from '../log'
import type { CollectorStats } from '../metrics/collector-stats'
import type { StorageHealth } from '../metrics/storage-health'
import type { RefusedAgents } from '../collector/refused-agents'
import { metricsRoutes } from '../metrics/route'
import type { DatabaseWaits } from '../metrics/database-waits'
import type { Store } from '../store/store'
import type { ServerTls } from '../tls/server-tls'
import { CERTIFICATE_PATH } from '../../shared/api/tls'
import { registerEndpoints, type ApiEndpoint, type RegisterOptions } from './api'
import { accessLog } from './access-log'
import { limitBodies } from './body-limits'
import { collapseSlashes } from './collapse-slashes'
import { capConnections } from './connection-caps'
import { consoleAssets, readConsolePage } from './console'
import { installErrorHandling } from './errors'
import { timeoutCheckInterval, type HttpLimits } from './http-limits'
import { loginRoutes } from './login'
import { ssoRoutes } from './sso-login'
import { plainListener } from './plain-listener'
import { setSecurityHeaders } from './security-headers'
import { SessionGate } from './session-gate'
import { TrustedProxies } from './trusted-proxies'

export interface AppDeps {
  store: Store
  /** Stores what POST /collector admits (the ingest thread). */
  collector: MessageCollector
  authenticator: BasicAuthenticator
  /** Shared with the authenticator: one count of failures per address and user name for every login. */
  throttle: LoginThrottle
  sessions: SessionService
  principals: Principals
  /** `Authorization: Bearer` on the API and /metrics (auth/api-tokens.ts). */
  apiTokens: ApiTokenService
  endpoints: readonly ApiEndpoint[]
  /** Check every API answer against its schema (tests): a broken contract fails the request. */
  checkAnswers?: boolean
  /** PostgreSQL's read threads, where the `pureRead` endpoints run (api/read-threads.ts). */
  reads?: RegisterOptions['reads']
  /** Told the URL of every route as it is added (the OpenAPI test compares them with the document). */
  onRoute?: (url: string) => void
  log: ServerLogger
  /** A log line per answered request (--access-log on). */
  accessLog?: boolean
  collectorLimits: CollectorLimits
  httpLimits: HttpLimits
  /** Ingest counts and latencies: filled by the collector, read by /metrics. */
  collectorStats: CollectorStats
  /** Whether the database can be written: fed by failed and stored writes, read by /metrics. */
  storage: StorageHealth
  /** Agents the collector refused: filled by the collector, read by /metrics and the API. */
  refusedAgents: RefusedAgents
  /** Statements the HTTP thread waited long for (PostgreSQL); absent in tests that build the app alone. */
  databaseWaits?: DatabaseWaits
  metricsEnabled: boolean
  version: string
  /** The built console (out/renderer); not served when absent. */
  consoleDir?: string
  /** Serve HTTPS with this certificate (and its renewals); absent: plain HTTP. */
  tls?: ServerTls
  /** The reverse proxies whose X-Forwarded-* headers count (--trusted-proxy); absent: none. */
  trustedProxies?: TrustedProxies
  /** With TLS: also listen in plain HTTP there, for agents that cannot do TLS (http/plain-listener.ts). */
  plainHttp?: { host: string; port: number }
  /** Single sign-on with OpenID Connect (--oidc-*); absent: off. */
  oidc?: OidcClient
  /** Password login for browsers kept only for this user (--password-login break-glass); absent: for everyone. */
  breakGlassUser?: string
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // POST /collector is served by the Node server itself, ahead of fastify (see collector/route); the
  // security headers are set there too, so that every answer carries them.
  const proxies = deps.trustedProxies ?? new TrustedProxies()
  let plain: Server | undefined
  const logAccess = deps.accessLog ? accessLog(deps.log, (request) => proxies.clientAddress(request)) : undefined
  const collector = collectorHandler({ ...deps, limits: deps.collectorLimits, clientAddress: (request) => proxies.clientAddress(request) })
  const limits = deps.httpLimits
  const app = fastify({
    loggerInstance: fastifyLogger(deps.log),
    // Fastify would log each request twice at info; the access log, when asked for, has one line each.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // request.ip, .protocol and .host read X-Forwarded-* only from these (the login throttle, Secure cookies).
    trustProxy: proxies.trusts,
    bodyLimit: limits.publicBodyBytes,
    // Arguments and answers are zod's (http/api.ts): fastify's JSON-schema compilers (ajv and
    // fast-json-stringify, ~2 MB of heap) are never loaded.
    schemaController: { compilersFactory: { buildValidator: noJsonSchemas, buildSerializer: noJsonSchemas } },
    serverFactory: (fastifyHandler) => {
      const options = {
        // Fastify's default for the servers it creates itself.
        keepAliveTimeout: 72_000,
        // A request too slow to arrive is answered 408 and its connection closed (issue 26).
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: timeoutCheckInterval(limits)
      }
      const handler: Parameters<typeof createServer>[1] = (request, response) => {
        logAccess?.(request, response)
        setSecurityHeaders(response, proxies.isHttps(request))
        collapseSlashes(request)
        if (isCollectorUrl(request.url)) collector(request, response)
        else fastifyHandler(request, response)
      }
      const tls = deps.tls
      const server = tls ? createHttpsServer({ ...options, ...pemPair(tls) }, handler) : createServer(options, handler)
      // A renewed certificate serves new connections at once; open ones keep the one they began with.
      if (tls && 'setSecureContext' in server) tls.onChange(() => server.setSecureContext(pemPair(tls)))
      capConnections(server, limits, deps.log)
      if (tls && deps.plainHttp) {
        plain = plainListener(options, collector, () => portOf(server), logAccess)
        capConnections(plain, limits, deps.log) // its own counts: the same caps again for old agents
      }
      return server
    }
  })
  // Closing waits for open requests, and Node stops timing requests out once the server closes: a
  // client that never finishes its request would hold the shutdown forever. Node closes the connections
  // idle when closing starts, not those busy then: answers sent from then on close theirs, or the
  // browser would keep them open for the keep-alive timeout (72 s) and the shutdown with them.
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    setTimeout(() => app.server.closeAllConnections(), limits.requestTimeoutMs).unref()
    done()
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  if (deps.plainHttp) {
    const { host, port } = deps.plainHttp
    app.addHook('onReady', async () => {
      if (!plain) return
      await listen(plain, host, port)
      deps.log.info(`plain HTTP on port ${portOf(plain)}: POST /collector only, for agents without TLS; the rest is redirected to HTTPS`)
    })
    app.addHook('onClose', async () => {
      plain?.closeAllConnections()
      await new Promise((resolve) => plain?.close(resolve) ?? resolve(undefined))
    })
  }
  if (deps.onRoute) {
    const told = deps.onRoute
    app.addHook('onRoute', (route) => told(route.url))
  }
  const gate = new SessionGate(deps.sessions, deps.principals, deps.storage, deps.apiTokens, { singleSignOn: deps.oidc !== undefined })
  installErrorHandling(app, deps.log, gate, deps.storage, deps.endpoints)
  await app.register(fastifyCookie)
  limitBodies(app, gate, deps.endpoints, limits)
  // Form bodies keep repeated keys (hostid=1&hostid=2); handlers read them through http/params. The
  // limit is the route's (body-limits.ts).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string))
  )

  // The certificate agents pin (Monit's cacertificatefile) and browsers may import: public, never the key.
  if (deps.tls) {
    const tls = deps.tls
    app.get(CERTIFICATE_PATH, async (_request, reply) =>
      reply
        .header('Content-Type', 'application/x-pem-file')
        .header('Content-Disposition', 'attachment; filename="overseer.pem"')
        .send(tls.current.cert)
    )
  }
  // An unauthenticated liveness probe for supervisors and tests; it reveals nothing but the version.
  app.get('/health', async () => ({ status: 'ok', version: deps.version }))
  // Readiness, for load balancers (docs/postgresql.md): 503 with the reason (the central error handler)
  // while this instance cannot reach its database. A full or busy database is every instance's: that
  // takes no instance out.
  app.get('/ready', async () => {
    deps.store.ping()
    return { status: 'ready' }
  })
  await app.register(metricsRoutes, { ...deps, collectorBodyBytes: collector.bodyBytesInFlight })
  await app.register(loginRoutes, {
    gate,
    users: deps.store.users,
    audit: deps.store.auditLog,
    throttle: deps.throttle,
    consolePage: deps.consoleDir ? readConsolePage(deps.consoleDir) : undefined,
    breakGlassUser: deps.breakGlassUser
  })
  if (deps.oidc) await app.register(ssoRoutes, { gate, store: deps.store, oidc: deps.oidc })
  registerEndpoints(app, gate, deps.endpoints, { checkAnswers: deps.checkAnswers, reads: deps.reads })
  if (deps.consoleDir) await app.register(consoleAssets, { dir: deps.consoleDir })
  return app
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function portOf(server: { address(): unknown }): number {
  const address = server.address()
  return typeof address === 'object' && address !== null ? (address as { port: number }).port : 0
}

function pemPair(tls: ServerTls): { cert: string; key: string } {
  return { cert: tls.current.cert, key: tls.current.key }
}

function noJsonSchemas(): never {
  throw new Error('routes declare no JSON schemas: arguments and answers are checked with zod')
}

/**
 * Fastify's own lines, from warn up: below that it only says what our lines say already ("Server listening
 * at", the listening addresses being logged by main.ts).
 */
function fastifyLogger(log: ServerLogger): FastifyBaseLogger {
  return log.levelVal >= log.levels.values.warn ? log : log.child({}, { level: 'warn' })
}
