// POST /collector: where Monit agents push status and events (agent protocol §3, §6).
//
// Served straight from the Node HTTP server, ahead of fastify: every agent message arrives on a fresh
// connection, and fastify's per-request machinery (hooks, content-type parsing, reply serialisation)
// cost about a third of the server's HTTP time per message. Answers keep the API's error shape.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { gunzipSync } from 'node:zlib'
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

export interface CollectorDeps {
  ingest: Ingest
  authenticator: BasicAuthenticator
  log: Logger
  limits: CollectorLimits
  now?: () => number
  /** Counts each stored message and its ingest latency, for /metrics. */
  collectorStats?: CollectorStats
}

export const COLLECTOR_PATH = '/collector'

/** Whether a request URL names the collector (a query string is ignored, as fastify's router does). */
export function isCollectorUrl(url: string | undefined): boolean {
  if (!url?.startsWith(COLLECTOR_PATH)) return false
  return url.length === COLLECTOR_PATH.length || url.charCodeAt(COLLECTOR_PATH.length) === 0x3f // '?'
}

// "mmonit/3.6 or later" makes agents gzip every later message (agent protocol §3.5).
const SERVER_HEADER = 'mmonit/3.7.0'
const REALM = 'Basic realm="collector"'

export type CollectorHandler = (request: IncomingMessage, response: ServerResponse) => void

export function collectorHandler(deps: CollectorDeps): CollectorHandler {
  const now = deps.now ?? Date.now
  const { log, limits } = deps

  const answer = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    if (response.headersSent || response.destroyed) return
    response.writeHead(status, {
      ...headers,
      Server: SERVER_HEADER,
      Connection: 'close',
      ...(body === '' ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
      'Content-Length': Buffer.byteLength(body)
    })
    response.end(body)
  }
  const fail = (request: IncomingMessage, response: ServerResponse, err: unknown) => {
    if (err instanceof HttpError) {
      answer(response, err.statusCode, JSON.stringify({ error: err.message }), err.headers)
      return
    }
    log.error(`${request.method} ${COLLECTOR_PATH} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    answer(response, 500, JSON.stringify({ error: 'internal server error' }))
  }

  const store = (request: IncomingMessage, principal: Principal, body: Buffer) => {
    const started = performance.now()
    const xml = decodeBody(body, request.headers['content-encoding'], limits.maxXmlBytes)
    let message
    try {
      message = parseMonitMessage(xml)
    } catch (err) {
      if (err instanceof MessageParseError) {
        log.warn(`collector: rejected a message from ${request.socket.remoteAddress}: ${err.message}`)
        throw new HttpError(400, `not a valid Monit message: ${err.message}`)
      }
      throw err
    }
    try {
      deps.ingest.apply(message, now(), (hostId) => mayCollect(principal, hostId))
    } catch (err) {
      if (err instanceof ReportRefused) throw new HttpError(403, `user ${principal.uname} may not report for this host`)
      throw err
    }
    // Decode, parse and store: the work this server does per message, without network time.
    deps.collectorStats?.record((performance.now() - started) / 1000)
  }

  return (request, response) => {
    try {
      const principal = admit(request, deps.authenticator)
      readBody(request, limits.maxBodyBytes, (err, body) => {
        if (err) return fail(request, response, err)
        try {
          store(request, principal, body!)
          answer(response, 200, '')
        } catch (failure) {
          fail(request, response, failure)
        }
      })
    } catch (err) {
      fail(request, response, err)
    }
  }
}

/** Method and credentials, checked before any body is read so strangers cannot make us buffer megabytes. */
function admit(request: IncomingMessage, authenticator: BasicAuthenticator): Principal {
  if (request.method !== 'POST') throw new HttpError(405, 'the collector accepts POST only', { Allow: 'POST' })
  const principal = authenticator.authenticate(request.headers.authorization)
  if (!principal) throw new HttpError(401, 'valid collector credentials are required', { 'WWW-Authenticate': REALM })
  if (!holdsAnywhere(principal, Permission.Collector)) {
    throw new HttpError(403, `user ${principal.uname} lacks the collector permission`)
  }
  return principal
}

const TOO_LARGE = 'request body is too large'

/**
 * The whole body, up to `maxBytes`. Any Content-Type is taken: the parser decides what the bytes are.
 * A client that hangs up mid-body gets no callback: there is no one left to answer.
 */
function readBody(request: IncomingMessage, maxBytes: number, done: (err: HttpError | undefined, body?: Buffer) => void): void {
  const declared = Number(request.headers['content-length'])
  if (declared > maxBytes) {
    request.resume()
    return done(new HttpError(413, TOO_LARGE))
  }
  const chunks: Buffer[] = []
  let received = 0
  let finished = false
  request.on('data', (chunk: Buffer) => {
    if (finished) return
    received += chunk.length
    if (received > maxBytes) {
      finished = true
      chunks.length = 0
      return done(new HttpError(413, TOO_LARGE))
    }
    chunks.push(chunk)
  })
  request.on('end', () => {
    if (finished) return
    finished = true
    done(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received))
  })
  // 'aborted' and socket errors: nothing stored, nothing to answer.
  request.on('error', () => {
    finished = true
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
