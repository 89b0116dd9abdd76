// Declares API endpoints once and serves each under /api/1, /api/2 and the unprefixed legacy path
// (compat GEN-1, GEN-6), with M/Monit's session, permission, CSRF and argument rules. Every endpoint
// states its arguments and its answer as zod schemas (src/shared/api): the handler's return type is
// checked against the answer, and the OpenAPI document (api/openapi-document.ts) is generated from both.
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { Session } from '../auth/sessions'
import type { Principal } from '../domain/permissions'
import { HttpError } from '../web/http-error'
import { rawParams, readJsonParams, readParams, type RawParams } from './params'
import type { Caller, SessionGate } from './session-gate'

/** Which shape to answer with: the legacy paths are api/1 plus api/2's additive fields (GEN-6). */
export type ApiVersion = 1 | 2 | 'legacy'
/** 'public': no session needed; 'user': any logged-in user; 'admin': administrators only (403 for others). */
export type Access = 'public' | 'user' | 'admin'
export type Method = 'GET' | 'POST'

export interface PublicContext<P> {
  params: P
  /** Every argument as sent, for endpoints that take free-form keys (session/put). */
  raw: RawParams
  version: ApiVersion
  request: FastifyRequest
  reply: FastifyReply
}

/** What a handler of a session-gated endpoint gets: the arguments and the logged-in caller. */
export type ApiContext<P> = PublicContext<P> & Caller

/** What a handler of a `needsSession` endpoint gets: the caller's session is always there. */
export type SessionContext<P> = PublicContext<P> & Extract<Caller, { session: Session }>

type ContextOf<A extends Access, P, N extends boolean> = A extends 'public'
  ? PublicContext<P>
  : N extends true
    ? SessionContext<P>
    : ApiContext<P>

export interface ApiEndpoint<
  S extends z.ZodRawShape = z.ZodRawShape,
  R extends z.ZodType = z.ZodType,
  A extends Access = Access,
  N extends boolean = boolean
> {
  /** e.g. 'status/hosts/list' */
  path: string
  methods: readonly Method[]
  /** Default 'user'. */
  access?: A
  /**
   * State-changing: needs the CSRF token when the session has protection on (compat CSRF-4). Taken by
   * the methods listed (the spec lets some changes, an event's dismissal, come by GET too). A function
   * says it per request, for an endpoint of ours that only some requests make one (one that would send a
   * stored secret): those must also come by POST.
   */
  mutation?: boolean | ((raw: RawParams) => boolean)
  /** Refused to API tokens (403): it acts on the caller's session, or makes tokens (a token must not mint more). */
  needsSession?: N
  /**
   * Writes in the name of the caller's user (its profile, its tokens, a note it signs): refused (403) to a
   * session whose user it deleted itself (compat CLI-7), which has no user left to write for.
   */
  asUser?: boolean
  /**
   * Reads the store and nothing else, from its `params`, `version` and `principal` alone (no request, reply
   * or session): on PostgreSQL it runs on a read thread (api/read-threads.ts), so that a slow read holds no
   * other request. Its answer crosses threads: plain data only.
   */
  pureRead?: boolean
  /** The prefixes it is served under; default all three. */
  versions?: readonly ApiVersion[]
  /** Ours, not M/Monit's: marked x-overseer-extension in the OpenAPI document. */
  extension?: boolean
  /** One line for the OpenAPI document. */
  summary: string
  /** Where the arguments come from: the query string and a form body (default), or a JSON body only. */
  input?: 'form' | 'json'
  /** Runs before the arguments are read: refuses, by throwing, callers the endpoint does not serve now. */
  admit?(request: FastifyRequest): void
  params: S
  /** The JSON answer; 'text/event-stream' or 'text/csv' for an answer the handler sends itself. */
  answer: R | 'text/event-stream' | 'text/csv'
  /** Ends what the endpoint holds open (streams) before the server waits for its connections to close. */
  closing?(): void
  handle(ctx: ContextOf<A, z.output<z.ZodObject<S>>, N>): z.input<R> | Promise<z.input<R>>
}

/** Identity, for type inference of `params` in `handle` and for checking its answer against `answer`. */
export function endpoint<S extends z.ZodRawShape, R extends z.ZodType, A extends Access = 'user', N extends boolean = false>(
  e: ApiEndpoint<S, R, A, N>
): ApiEndpoint {
  return e as unknown as ApiEndpoint
}

export const API_PREFIXES: Record<string, ApiVersion> = { '': 'legacy', '/api/1': 1, '/api/2': 2 }
/**
 * The methods routed for every endpoint: GET and POST, so that the wrong one of the two gets the 405 after
 * the session's checks. Any other method reaches the not-found handler, which answers the same 405
 * (endpointsByUrl): routing every method under the three prefixes took ~1.5 MB of heap.
 */
const ROUTED_METHODS = ['GET', 'POST'] as const

/** Each URL an endpoint is served under, with the answer's shape there. */
function* servedUrls(e: ApiEndpoint): Generator<[url: string, version: ApiVersion]> {
  for (const [prefix, version] of Object.entries(API_PREFIXES)) {
    if (!e.versions || e.versions.includes(version)) yield [`${prefix}/${e.path}`, version]
  }
}

/** Which endpoint each URL serves, for the 405 of the methods not routed (http/errors.ts). */
export function endpointsByUrl(endpoints: readonly ApiEndpoint[]): Map<string, ApiEndpoint> {
  const byUrl = new Map<string, ApiEndpoint>()
  for (const e of endpoints) for (const [url] of servedUrls(e)) byUrl.set(url, e)
  return byUrl
}

/** A request of a `pureRead` endpoint, its arguments checked: all it may use, sent to where it runs. */
export interface PureReadRequest {
  path: string
  version: ApiVersion
  params: unknown
  principal: Principal
}

export interface RegisterOptions {
  /** Parse every answer with its schema, failing the request when it breaks the contract (tests). */
  checkAnswers?: boolean
  /** Where `pureRead` endpoints run (PostgreSQL's read threads); absent: on this thread, as the others. */
  reads?: { read(request: PureReadRequest): Promise<unknown> }
}

export function registerEndpoints(
  app: FastifyInstance,
  gate: SessionGate,
  endpoints: readonly ApiEndpoint[],
  opts: RegisterOptions = {}
): void {
  for (const e of endpoints) {
    if (e.closing) {
      const closing = e.closing
      app.addHook('preClose', (done) => {
        closing()
        done()
      })
    }
    for (const [url, version] of servedUrls(e)) {
      app.route({
        method: [...ROUTED_METHODS],
        url,
        // HEAD too is answered by the not-found handler (405).
        exposeHeadRoute: false,
        handler: async (request, reply) => {
          const caller = e.access === 'public' ? undefined : gate.caller(request, reply)
          if (e.access !== 'public' && !caller) return reply
          if (!e.methods.includes(request.method as Method)) throw methodNotAllowed(e.path, e.methods)
          if (e.access === 'admin' && !caller?.principal.admin) throw new HttpError(403, 'administrator rights required')
          if (e.needsSession && caller?.token) throw new HttpError(403, `${e.path} needs a logged-in session, not an API token`)
          if (e.asUser && caller?.session?.deletedUser) throw new HttpError(403, `${e.path} needs a user: this session's was deleted`)
          e.admit?.(request)
          const raw = rawParams(request)
          const mutation = typeof e.mutation === 'function' ? e.mutation(raw) : e.mutation === true
          if (mutation && typeof e.mutation === 'function' && request.method !== 'POST') {
            throw methodNotAllowed(e.path, ['POST'], 'with these arguments')
          }
          if (mutation && caller?.token?.scope === 'read') throw new HttpError(403, `this API token is read-only: ${e.path} changes state`)
          // A token is sent on purpose, never by the browser on its own like a cookie: it needs no CSRF token.
          if (mutation && caller?.session?.csrfProtection && !validToken(caller.session, request, raw)) {
            throw new HttpError(403, 'Invalid CSRF token')
          }
          const params = e.input === 'json' ? readJsonParams(e.params, request) : readParams(e.params, raw)
          const context = { params, raw, version, request, reply }
          const result = await (e.pureRead && opts.reads && caller
            ? opts.reads.read({ path: e.path, version, params, principal: caller.principal })
            : e.handle(caller ? { ...context, ...caller } : context))
          if (reply.sent) return reply
          if (opts.checkAnswers && typeof e.answer !== 'string') assertAnswer(e, result)
          return reply.header('Content-Type', 'application/json; charset=utf-8').send(result ?? {})
        }
      })
    }
  }
}

export function methodNotAllowed(path: string, methods: readonly Method[], when = ''): HttpError {
  return new HttpError(405, `${path} accepts ${methods.join(' or ')}${when && ` ${when}`}`, { Allow: methods.join(', ') })
}

function assertAnswer(e: ApiEndpoint, result: unknown): void {
  const checked = (e.answer as z.ZodType).safeParse(result)
  if (checked.success) return
  const issue = checked.error.issues[0]
  throw new Error(`the answer of ${e.path} breaks its contract at ${issue.path.join('.') || 'the top'}: ${issue.message}`)
}

/** The session's CSRF token as the request sends it: the CSRFToken header or parameter (compat CSRF-3). */
export function validToken(session: Session, request: FastifyRequest, raw: RawParams): boolean {
  const sent = request.headers.csrftoken ?? raw.get('CSRFToken')?.[0]
  if (typeof sent !== 'string') return false
  const a = Buffer.from(sent)
  const b = Buffer.from(session.csrfToken)
  return a.length === b.length && timingSafeEqual(a, b)
}
