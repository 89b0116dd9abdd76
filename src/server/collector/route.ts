// POST /collector: where Monit agents push status and events (agent protocol §3, §6).
import { gunzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { BasicAuthenticator } from '../auth/basic-auth'
import { Permission } from '../../shared/codes'
import { holdsAnywhere, mayCollect, type Principal } from '../domain/permissions'
import { HttpError } from '../http/errors'
import type { Logger } from '../log'
import type { CollectorStats } from '../metrics/collector-stats'
import { ReportRefused, type Ingest } from './ingest'
import { MessageParseError, parseMonitMessage } from './parse-message'

export interface CollectorLimits {
  /** Largest body accepted on the wire (compressed or not). */
  maxBodyBytes: number
  /** Largest XML document after gunzip: the bound against gzip bombs. */
  maxXmlBytes: number
}

export const defaultCollectorLimits: CollectorLimits = { maxBodyBytes: 4 * 1024 * 1024, maxXmlBytes: 32 * 1024 * 1024 }

interface CollectorDeps {
  ingest: Ingest
  authenticator: BasicAuthenticator
  log: Logger
  limits: CollectorLimits
  now?: () => number
  /** Counts each stored message and its ingest latency, for /metrics. */
  collectorStats?: CollectorStats
}

declare module 'fastify' {
  interface FastifyRequest { collectorPrincipal?: Principal }
}

// "mmonit/3.6 or later" makes agents gzip every later message (agent protocol §3.5).
const SERVER_HEADER = 'mmonit/3.7.0'
const REALM = 'Basic realm="collector"'

export async function collectorRoutes(app: FastifyInstance, deps: CollectorDeps): Promise<void> {
  const now = deps.now ?? Date.now
  // Agents send text/xml, but any body is taken as bytes: the parser decides what it is.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.limits.maxBodyBytes }, (_req, body, done) => done(null, body))

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Server', SERVER_HEADER).header('Connection', 'close')
    if (request.method !== 'POST') throw new HttpError(405, 'the collector accepts POST only', { Allow: 'POST' })
    // Authenticate before reading the body, so strangers cannot make us buffer megabytes.
    const principal = deps.authenticator.authenticate(request.headers.authorization)
    if (!principal) throw new HttpError(401, 'valid collector credentials are required', { 'WWW-Authenticate': REALM })
    if (!holdsAnywhere(principal, Permission.Collector)) {
      throw new HttpError(403, `user ${principal.uname} lacks the collector permission`)
    }
    request.collectorPrincipal = principal
    // The body is XML whatever the client labels it; fastify would otherwise refuse a missing type.
    request.headers['content-type'] ||= 'text/xml'
  })

  app.all('/collector', async (request, reply) => {
    const started = performance.now()
    const body = request.body instanceof Buffer ? request.body : Buffer.alloc(0)
    const xml = decodeBody(body, request.headers['content-encoding'], deps.limits.maxXmlBytes)
    let message
    try {
      message = parseMonitMessage(xml)
    } catch (err) {
      if (err instanceof MessageParseError) {
        deps.log.warn(`collector: rejected a message from ${request.ip}: ${err.message}`)
        throw new HttpError(400, `not a valid Monit message: ${err.message}`)
      }
      throw err
    }
    const principal = request.collectorPrincipal!
    try {
      deps.ingest.apply(message, now(), (hostId) => mayCollect(principal, hostId))
    } catch (err) {
      if (err instanceof ReportRefused) throw new HttpError(403, `user ${principal.uname} may not report for this host`)
      throw err
    }
    // Decode, parse and store: the work this server does per message, without network time.
    deps.collectorStats?.record((performance.now() - started) / 1000)
    return reply.code(200).send()
  })
}

function decodeBody(body: Buffer, encoding: string | undefined, maxXmlBytes: number): Buffer {
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return body
  if (coding !== 'gzip' && coding !== 'x-gzip') throw new HttpError(415, `unsupported Content-Encoding: ${coding}`)
  try {
    return gunzipSync(body, { maxOutputLength: maxXmlBytes })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(413, `decompressed body exceeds ${maxXmlBytes} bytes`)
    }
    throw new HttpError(400, `body is not valid gzip data: ${(err as Error).message}`)
  }
}
