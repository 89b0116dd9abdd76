// Who is calling: the session behind the zsessionid cookie and its user's permissions. Without a live
// session every protected URL answers 200 with the HTML login page, never a JSON 401 (compat AUTH-5).
import '@fastify/cookie' // request.cookies, reply.setCookie
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Principals } from '../auth/principals'
import { SESSION_COOKIE, type Session, type SessionService } from '../auth/sessions'
import type { Principal } from '../domain/permissions'
import type { StorageHealth } from '../metrics/storage-health'
import { loginPage } from './login-page'

export interface Caller {
  session: Session
  principal: Principal
}

export class SessionGate {
  constructor(
    readonly sessions: SessionService,
    private readonly principals: Principals,
    readonly storage: StorageHealth
  ) {}

  session(request: FastifyRequest): Session | undefined {
    return this.sessions.resume(request.cookies[SESSION_COOKIE])
  }

  /**
   * The logged-in caller, or undefined after the login page has been sent. `rememberUrl`: log-in
   * returns there (AUTH-3); off for unknown paths, or a browser's favicon request would be the target.
   */
  caller(request: FastifyRequest, reply: FastifyReply, rememberUrl = true): Caller | undefined {
    const session = this.session(request)
    const principal = session?.userId != null ? this.principals.of(session.userId) : undefined
    if (session && principal) return { session, principal }
    this.sendLogin(request, reply, session, { rememberUrl })
    return undefined
  }

  /** A session for this request, created (with its cookie) when it has none. */
  ensureSession(request: FastifyRequest, reply: FastifyReply, existing = this.session(request)): Session {
    if (existing) return existing
    const session = this.sessions.create()
    reply.setCookie(SESSION_COOKIE, session.id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https'
    })
    return session
  }

  sendLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    existing: Session | undefined,
    opts: { status?: number; error?: string; uname?: string; rememberUrl?: boolean } = {}
  ): FastifyReply {
    // Storage refusing the session (a full disk) must not break the page: it is sent without a cookie.
    const session = this.storage.bestEffort(() => this.ensureSession(request, reply, existing))
    if (session && opts.rememberUrl && request.method === 'GET')
      this.storage.bestEffort(() => this.sessions.remember(session.id, request.url))
    // Exactly "text/html", no charset parameter: clients compare the string (compat AUTH-5).
    return reply
      .code(opts.status ?? 200)
      .header('Content-Type', 'text/html')
      .send(loginPage({ error: opts.error, uname: opts.uname }))
  }
}
