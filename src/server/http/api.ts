// Declares API endpoints once and serves each under /api/1, /api/2 and the unprefixed legacy path
// (compat GEN-1, GEN-6), with M/Monit's session, permission, CSRF and argument rules.
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { Session } from '../auth/sessions'
import type { Principal } from '../domain/permissions'
import { HttpError } from './errors'
import { rawParams, readParams, type RawParams } from './params'
import type { SessionGate } from './session-gate'

/** Which shape to answer with: the legacy paths are api/1 plus api/2's additive fields (GEN-6). */
export type ApiVersion = 1 | 2 | 'legacy'

export interface ApiContext<P> {
  params: P
  /** Every argument as sent, for endpoints that take free-form keys (session/put). */
  raw: RawParams
  principal: Principal
  session: Session
  version: ApiVersion
  request: FastifyRequest
  reply: FastifyReply
}

export interface ApiEndpoint<S extends z.ZodRawShape = z.ZodRawShape> {
  /** e.g. 'status/hosts/list' */
  path: string
  methods: readonly ('GET' | 'POST')[]
  /** 'admin': administrators only (403 for others). Default: any logged-in user. */
  access?: 'user' | 'admin'
  /** State-changing: needs the CSRF token when the session has protection on (compat CSRF-4). */
  mutation?: boolean
  /** The prefixes it is served under; default all three. */
  versions?: readonly ApiVersion[]
  params: S
  handle(ctx: ApiContext<z.output<z.ZodObject<S>>>): unknown
}

/** Identity, for type inference of `params` in `handle`. */
export function endpoint<S extends z.ZodRawShape>(e: ApiEndpoint<S>): ApiEndpoint<S> {
  return e
}

const prefixes: Record<string, ApiVersion> = { '': 'legacy', '/api/1': 1, '/api/2': 2 }
const ANY_METHOD = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const

export function registerEndpoints(app: FastifyInstance, gate: SessionGate, endpoints: readonly ApiEndpoint[]): void {
  for (const e of endpoints) {
    for (const [prefix, version] of Object.entries(prefixes)) {
      if (e.versions && !e.versions.includes(version)) continue
      app.route({
        method: [...ANY_METHOD],
        url: `${prefix}/${e.path}`,
        handler: async (request, reply) => {
          const caller = gate.caller(request, reply)
          if (!caller) return reply
          if (!e.methods.includes(request.method as 'GET' | 'POST')) {
            throw new HttpError(405, `${e.path} accepts ${e.methods.join(' or ')}`, { Allow: e.methods.join(', ') })
          }
          if (e.access === 'admin' && !caller.principal.admin) throw new HttpError(403, 'administrator rights required')
          const raw = rawParams(request)
          if (e.mutation && caller.session.csrfProtection && !validToken(caller.session, request, raw)) {
            throw new HttpError(403, 'Invalid CSRF token')
          }
          const params = readParams(e.params, raw)
          const result = await e.handle({ params, raw, ...caller, version, request, reply })
          if (reply.sent) return reply
          return reply.header('Content-Type', 'application/json; charset=utf-8').send(result ?? {})
        }
      })
    }
  }
}

function validToken(session: Session, request: FastifyRequest, raw: RawParams): boolean {
  const sent = request.headers.csrftoken ?? raw.get('CSRFToken')?.[0]
  if (typeof sent !== 'string') return false
  const a = Buffer.from(sent)
  const b = Buffer.from(session.csrfToken)
  return a.length === b.length && timingSafeEqual(a, b)
}
