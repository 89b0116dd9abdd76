// POST /collector: where Monit agents push status and events (agent protocol §3, §6).
//
// Served straight from the Node HTTP server, ahead of fastify: every agent message arrives on a fresh
// connection, and fastify's per-request machinery (hooks, content-type parsing, reply serialisation)
// is a large share of what such a request costs. Answers keep the API's {"error": …} shape. The
// message itself is stored on the ingest thread (ingest-thread.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Refused, Throttled, type BasicAuthenticator } from '../auth/basic-auth'
import type { RefusalReason } from '../../shared/api/refusal-reasons'
import { Permission } from '../../shared/codes'
import { holdsAnywhere, type Principal } from '../domain/permissions'
import { HttpError, storageUnavailable } from '../web/http-error'
import { requestPath } from '../web/request-path'
import { tooManyFailures } from '../web/too-many-failures'
import type { Logger } from '../log'
import type { CollectorStats } from '../metrics/collector-stats'
import type { StorageHealth } from '../metrics/storage-health'
import type { GroupRepository } from '../store/groups'
import type { MessageCollector } from './ingest-thread'
import { decodeBody, type CollectorLimits } from './request-body'
import { BytesInFlight, XmlInFlight, type Holding } from './bytes-in-flight'
import { RefusalLog } from './refusal-log'
import type { RefusedAgents } from './refused-agents'

export interface CollectorDeps {
  collector: MessageCollector
  /** Told when a stored message changed host-group memberships (on the collector's own connection). */
  store: { groups: Pick<GroupRepository, 'membershipsChangedElsewhere'> }
  authenticator: BasicAuthenticator
  log: Logger
  limits: CollectorLimits
  now?: () => number
  /** Counts each stored message and its ingest latency, for /metrics. */
  collectorStats?: CollectorStats
  /** Told of each message stored or refused for lack of storage. */
  storage: StorageHealth
  /** The agent's address: the socket's, or what a trusted reverse proxy forwards (http/trusted-proxies.ts). */
  clientAddress?: (request: IncomingMessage) => string
  /** Told of every agent or message refused, and of every message stored (which ends its agent's login refusals). */
  refusedAgents: RefusedAgents
}

export const COLLECTOR_PATH = '/collector'

/**
 * Whether a request URL names the collector: its normal path is exactly /collector (a query string is
 * ignored, as fastify's router does). Any other spelling, e.g. //collector, would reach fastify, which
 * never stores a message.
 */
export function isCollectorUrl(url: string | undefined): boolean {
  return url !== undefined && requestPath(url) === COLLECTOR_PATH
}

// "mmonit/3.6 or later" makes agents gzip every later message (agent protocol §3.5).
const SERVER_HEADER = 'mmonit/3.7.0'
const REALM = 'Basic realm="collector"'
const TOO_LARGE = 'request body is too large'
const BUSY = 'the collector is busy with other messages: try again later'

export interface CollectorHandler {
  (request: IncomingMessage, response: ServerResponse): void
  /** Bytes of bodies held now, for /metrics. */
  bodyBytesInFlight(): number
}

export function collectorHandler(deps: CollectorDeps): CollectorHandler {
  const now = deps.now ?? Date.now
  const clientAddress = deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '')
  const inFlight = new XmlInFlight(deps.limits.maxXmlBytesInFlight)
  const bodies = new BytesInFlight(deps.limits.maxBodyBytesInFlight)
  const { log, refusedAgents } = deps
  const refusalLog = new RefusalLog(log, now)
  const refused = (address: string, uname: string, reason: RefusalReason, detail?: string) =>
    refusalLog.refused(refusedAgents.refused(address, uname, reason), detail)

  const failed = (detail: string) => {
    log.error(`POST ${COLLECTOR_PATH} failed: ${detail}`)
    return new HttpError(500, 'internal server error')
  }

  const store = async (request: IncomingMessage, principal: Principal, address: string): Promise<void> => {
    const holding = bodies.hold()
    try {
      await storeHeld(request, principal, address, holding)
      refusedAgents.succeeded(address, principal.uname)
    } catch (err) {
      const reason = err instanceof HttpError ? messageRefusal(err.statusCode) : undefined
      if (reason) refused(address, principal.uname, reason, err instanceof MessageRefused ? err.detail : (err as HttpError).message)
      throw err
    } finally {
      holding.release()
    }
  }

  const storeHeld = async (request: IncomingMessage, principal: Principal, source: string, holding: Holding): Promise<void> => {
    const body = await readBody(request, deps.limits.maxBodyBytes, holding)
    const xml = await decodeBody(body, request.headers['content-encoding'], deps.limits.maxXmlBytes)
    const release = inFlight.claim(xml.length)
    if (!release) throw new HttpError(503, 'the collector is busy with other large messages: try again later')
    const startedAtMs = deps.storage.now()
    const outcome = await deps.collector.collect({ xml, principal, nowMs: now(), source }).finally(release)
    switch (outcome.kind) {
      case 'stored':
        if (outcome.notice) log.warn(`collector: ${outcome.notice}`)
        if (outcome.groupsChanged) deps.store.groups.membershipsChangedElsewhere()
        deps.collectorStats?.record(outcome.seconds)
        deps.storage.writeSucceeded(startedAtMs)
        return
      case 'unavailable':
        // Not a 500: the message was fine, and an agent answered non-200 keeps it queued for its next cycle.
        deps.storage.writeFailed(outcome)
        throw storageUnavailable(outcome.code)
      case 'refused':
        throw new MessageRefused(outcome.status, outcome.error, outcome.warning)
      case 'failed':
        throw failed(outcome.detail)
    }
  }

  const fail = (response: ServerResponse, err: unknown) => {
    if (err instanceof ClientGone) return
    if (err instanceof HttpError) return answer(response, err)
    // The credentials are read from the database too: out of reach, it is a 503 as for a message.
    const storageCode = deps.storage.writeFailed(err)
    if (storageCode !== undefined) return answer(response, storageUnavailable(storageCode))
    answer(response, failed(err instanceof Error ? (err.stack ?? err.message) : String(err)))
  }

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const address = clientAddress(request)
    admit(request, deps.authenticator, address)
      .then(
        (principal) => store(request, principal, address),
        (err: unknown) => {
          if (err instanceof AgentRefused) refused(address, err.uname, err.reason)
          throw err
        }
      )
      .then(
        () => answer(response),
        (err: unknown) => fail(response, err)
      )
  }
  return Object.assign(handle, { bodyBytesInFlight: () => bodies.bytes })
}

/** An agent turned away before its body is read, and why. */
class AgentRefused extends HttpError {
  constructor(
    refusal: HttpError,
    readonly reason: RefusalReason,
    readonly uname: string
  ) {
    super(refusal.statusCode, refusal.message, refusal.headers)
  }
}

/** A message the ingest thread refused; `detail` says what was wrong with it, for the log. */
class MessageRefused extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly detail: string | undefined
  ) {
    super(status, message)
  }
}

/** Why a message of an admitted agent was refused, by its answer's status; undefined for the server's own troubles (503). */
function messageRefusal(status: number): RefusalReason | undefined {
  if (status === 413) return 'too_large'
  if (status === 400 || status === 415) return 'malformed'
  if (status === 403) return 'host_not_permitted'
  return undefined
}

/** Method and credentials, checked before any body is read so strangers cannot make us buffer megabytes. */
async function admit(request: IncomingMessage, authenticator: BasicAuthenticator, address: string): Promise<Principal> {
  if (request.method !== 'POST') throw new HttpError(405, 'the collector accepts POST only', { Allow: 'POST' })
  const principal = await authenticator.authenticate(request.headers.authorization, address)
  if (principal instanceof Throttled) {
    throw new AgentRefused(tooManyFailures(principal.retryAfterSec, { 'WWW-Authenticate': REALM }), 'locked_out', principal.uname)
  }
  if (principal instanceof Refused) {
    const unauthorised = new HttpError(401, 'valid collector credentials are required', { 'WWW-Authenticate': REALM })
    throw new AgentRefused(unauthorised, principal.reason, principal.uname)
  }
  if (!holdsAnywhere(principal, Permission.Collector)) {
    const forbidden = new HttpError(403, `user ${principal.uname} lacks the collector permission`)
    throw new AgentRefused(forbidden, 'no_collector_permission', principal.uname)
  }
  return principal
}

/** 200 with an empty body, or the error as {"error": …}; agents read only the status line (agent protocol §3.5). */
function answer(response: ServerResponse, error?: HttpError): void {
  if (response.headersSent || response.destroyed) return
  const body = error ? JSON.stringify({ error: error.message }) : ''
  response.writeHead(error?.statusCode ?? 200, {
    ...error?.headers,
    Server: SERVER_HEADER,
    Connection: 'close',
    ...(error ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Content-Length': Buffer.byteLength(body)
  })
  response.end(body)
}

/** The client hung up before its body was complete: nothing is stored and no one is left to answer. */
class ClientGone extends Error {}

/**
 * The whole body, up to `maxBytes`, held in `holding` from before its first byte: its announced length
 * at once, else chunk by chunk. Any Content-Type is taken: the parser decides what the bytes are.
 */
function readBody(request: IncomingMessage, maxBytes: number, holding: Holding): Promise<Buffer> {
  const announced = Number(request.headers['content-length'])
  if (announced > maxBytes) return Promise.reject(new HttpError(413, TOO_LARGE))
  const known = Number.isSafeInteger(announced)
  if (known && !holding.grow(announced)) return Promise.reject(new HttpError(503, BUSY))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const refuse = (error: HttpError) => {
      request.removeAllListeners('data')
      request.resume()
      reject(error)
    }
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBytes) return refuse(new HttpError(413, TOO_LARGE))
      if (!known && !holding.grow(chunk.length)) return refuse(new HttpError(503, BUSY))
      chunks.push(chunk)
    })
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)))
    request.on('error', () => reject(new ClientGone()))
    request.on('close', () => {
      if (!request.complete) reject(new ClientGone())
    })
  })
}
