// Who is calling: the session behind the zsessionid cookie and its user's permissions. Without a live
// session every protected URL answers 200 with the HTML login page, never a JSON 401 (compat AUTH-5); so
// does the session of a collector-only user (mayOpenSession), whose role may have changed since its login.
// A request with `Authorization: Bearer …` is a script's: its API token alone says who calls (no session,
// no cookie, no CSRF), and a token not valid now answers a JSON 401 (auth/api-tokens.ts).
import '@fastify/cookie' // request.cookies, reply.setCookie
import type { FastifyReply, FastifyRequest } from 'fastify'
import { bearerToken, invalidTokenError, type ApiTokenService, type TokenHolder } from '../auth/api-tokens'
import type { Principals } from '../auth/principals'
import { SESSION_COOKIE, type Session, type SessionService } from '../auth/sessions'
import { mayOpenSession, type Principal } from '../domain/permissions'
import type { StorageHealth } from '../metrics/storage-health'
import { fromBrowser } from './browser-request'
import { loginPage } from './login-page'

/** A logged-in session's caller, or an API token's (no session). */
export type Caller = { session: Session; principal: Principal; token?: undefined } | ({ session?: undefined } & TokenHolder)

export class SessionGate {
  constructor(
    readonly sessions: SessionService,
    private readonly principals: Principals,
    readonly storage: StorageHealth,
    private readonly apiTokens?: ApiTokenService,
    /** What the login page offers besides the password form. */
    private readonly loginOptions: { singleSignOn: boolean } = { singleSignOn: false }
  ) {}

  session(request: FastifyRequest): Session | undefined {
    return this.sessions.resume(request.cookies[SESSION_COOKIE])
  }

  /**
   * The logged-in caller, or undefined after the login page has been sent. `rememberUrl`: log-in
   * returns there (AUTH-3); off for unknown paths, or a browser's favicon request would be the target.
   */
  caller(request: FastifyRequest, reply: FastifyReply, rememberUrl = true): Caller | undefined {
    const holder = this.tokenHolder(request)
    if (holder) return holder
    const session = this.session(request)
    const principal = session && this.principals.ofSession(session)
    if (session && principal && mayOpenSession(principal)) return { session, principal }
    this.sendLogin(request, reply, session, { rememberUrl })
    return undefined
  }

  /**
   * The holder of the request's Bearer token; undefined when it sends none. A token not valid now (unknown,
   * revoked, expired, its owner gone) is a 401 at once: the client asked for no session and gets no login page.
   */
  tokenHolder(request: FastifyRequest): TokenHolder | undefined {
    const token = bearerToken(request.headers.authorization)
    if (token === undefined || !this.apiTokens) return undefined
    const holder = this.apiTokens.authenticate(token)
    if (!holder) throw invalidTokenError()
    return holder
  }

  /** A session for this request, created (with its cookie) when it has none. */
  ensureSession(request: FastifyRequest, reply: FastifyReply, existing = this.session(request)): Session {
    if (existing) return existing
    const session = this.sessions.create()
    this.setCookie(request, reply, session)
    return session
  }

  /**
   * Logs the session in. A browser that brought its id in the cookie gets a new one (a page or a network
   * attacker may have planted it); API clients keep theirs, as M/Monit's clients rely on (compat AUTH-3).
   */
  logIn(request: FastifyRequest, reply: FastifyReply, session: Session, userId: number, csrfProtection: boolean): void {
    const mayBePlanted = request.cookies[SESSION_COOKIE] === session.id && fromBrowser(request)
    const loggedIn = this.sessions.logIn(session, userId, csrfProtection, mayBePlanted)
    if (loggedIn.id !== session.id) this.setCookie(request, reply, loggedIn)
  }

  /** False for a user who may not open a session: gone, or collector-only (mayOpenSession). */
  mayLogIn(userId: number): boolean {
    const principal = this.principals.of(userId)
    return principal !== undefined && mayOpenSession(principal)
  }

  private setCookie(request: FastifyRequest, reply: FastifyReply, session: Session): void {
    reply.setCookie(SESSION_COOKIE, session.id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https'
    })
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
      .send(loginPage({ error: opts.error, uname: opts.uname, singleSignOn: this.loginOptions.singleSignOn }))
  }
}
