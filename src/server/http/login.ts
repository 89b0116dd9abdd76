// Form login as M/Monit does it (compat §2): GET / and /index.csp, POST (or a script's GET) /z_security_check,
// /login/logout.csp. API clients keep their session id at login (AUTH-3), browsers get a new one
// (session-gate.ts); a login or logout another site made a browser send is refused (login CSRF).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { LoginThrottle } from '../auth/login-throttle'
import type { Session } from '../auth/sessions'
import { checkPassword } from '../auth/passwords'
import type { AuditLogRepository } from '../store/audit-log'
import type { UserRepository } from '../store/users'
import { validToken } from './api'
import { crossSite, madeByBrowser } from './browser-request'
import { HttpError, storageUnavailable } from './errors'
import { rawParams } from './params'
import type { SessionGate } from './session-gate'
import { setupState } from './setup'
import { tooManyFailures } from '../web/too-many-failures'

export interface LoginDeps {
  gate: SessionGate
  users: UserRepository
  throttle: LoginThrottle
  /** Where logins and failed ones are recorded, with the caller's address. */
  audit: AuditLogRepository
  /** The console page for logged-in users; a plain page when no console is built. */
  consolePage?: string
  /**
   * With single sign-on (--password-login break-glass): the one user a browser may still log in with a
   * password. Scripts and M/Monit API clients keep their passwords (issue 30 §2). Absent: everyone.
   */
  breakGlassUser?: string
}

const INVALID = 'Invalid username or password'
const COLLECTOR_ONLY = 'This account may only send agent data to /collector: it cannot log in'
const BROWSER_GET = 'A browser logs in with the login form: logging in by GET is for scripts'
const PASSWORD_LOGIN_OFF = 'Password login is turned off here: log in with single sign-on'

export async function loginRoutes(app: FastifyInstance, deps: LoginDeps): Promise<void> {
  const { gate } = deps
  const home = (request: FastifyRequest, reply: FastifyReply) => {
    // First run (no user yet, browser on this machine): the console's setup screen instead of a login
    // nobody can pass. `/` serves the console, which lands on /index.csp when it finds no session.
    if (deps.consolePage && setupState(request, deps.users) === 'open') {
      if (request.url.startsWith('/index.csp')) return reply.code(302).header('Location', '/#/setup').send()
      return reply.header('Content-Type', 'text/html').send(deps.consolePage)
    }
    const caller = gate.caller(request, reply)
    if (!caller) return reply
    const page =
      deps.consolePage ?? `<!doctype html><meta charset="utf-8"><title>Overseer</title><p>Logged in as ${caller.principal.uname}.</p>`
    return reply.header('Content-Type', 'text/html').send(page)
  }
  app.get('/', home)
  app.get('/index.csp', home)

  // A login whose session cannot be written (a full disk) gets the login page saying so, 503; other errors
  // go on to the central handler (errors.ts).
  const storageFailed = (err: Error, request: FastifyRequest, reply: FastifyReply) => {
    const code = gate.storage.writeFailed(err)
    if (code === undefined) throw err
    const unavailable = storageUnavailable(code)
    reply.headers(unavailable.headers)
    return fail(request, reply, undefined, unavailable.statusCode, unavailable.message)
  }

  // POST as M/Monit's form sends it; GET too, as some scripts log in (compat CLI-2). The credentials are
  // read from the query string and the form body alike, the body winning (CLI-1). HEAD is not a login.
  app.route({
    method: ['GET', 'POST'],
    url: '/z_security_check',
    exposeHeadRoute: false,
    errorHandler: storageFailed,
    handler: async (request, reply) => {
      if (crossSite(request)) return fail(request, reply, undefined, 403, 'Cross-site login refused')
      if (request.method === 'GET' && madeByBrowser(request)) return fail(request, reply, undefined, 403, BROWSER_GET)
      const params = rawParams(request)
      const field = (name: string) => params.get(name)?.at(-1)
      const session = gate.ensureSession(request, reply)
      const uname = field('z_username') ?? ''
      const wait = deps.throttle.retryAfter(request.ip, uname)
      if (wait > 0) {
        const refusal = tooManyFailures(wait)
        reply.headers(refusal.headers)
        return fail(request, reply, session, 429, refusal.message, uname)
      }
      if (deps.breakGlassUser !== undefined && uname !== deps.breakGlassUser && madeByBrowser(request)) {
        deps.audit.record(
          { userId: null, uname: uname.slice(0, 255), address: request.ip },
          { action: 'login-failed', target: `user ${uname.slice(0, 255)}`, detail: 'password login off' }
        )
        return fail(request, reply, session, 403, PASSWORD_LOGIN_OFF, uname)
      }
      const user = deps.users.credentialsOf(uname)
      const password = field('z_password') ?? ''
      // Counted before the check, which waits on the thread pool: parallel guesses would all pass the throttle.
      deps.throttle.failed(request.ip, uname, user !== undefined)
      // The name as typed, bounded: a failed login's row must not grow with what an attacker sends.
      const actor = { userId: user?.id ?? null, uname: uname.slice(0, 255), address: request.ip }
      const failed = (reason: string) => deps.audit.record(actor, { action: 'login-failed', target: `user ${actor.uname}`, detail: reason })
      if (!user || !(await checkPassword(deps.users, user, password))) {
        failed(user ? 'wrong password' : 'unknown user')
        return fail(request, reply, session, 401, INVALID, uname)
      }
      deps.throttle.succeeded(request.ip, uname)
      if (!gate.mayLogIn(user.id)) {
        failed('collector-only account')
        return fail(request, reply, session, 403, COLLECTOR_ONLY, uname)
      }
      deps.audit.recording(
        actor,
        { action: 'login', target: `user ${user.id} ${uname}`, detail: request.method === 'GET' ? 'GET' : 'form' },
        () => gate.logIn(request, reply, session, user.id, field('z_csrf_protection')?.toLowerCase() !== 'off')
      )
      return reply.code(302).header('Location', safeRedirect(session.savedUrl)).send()
    }
  })

  // GET stays for M/Monit's clients (AUTH-7); the console posts with the session's CSRF token.
  const logout = (request: FastifyRequest, reply: FastifyReply) => {
    if (crossSite(request)) throw new HttpError(403, 'Cross-site logout refused')
    const session = gate.session(request)
    if (session) {
      if (request.method === 'POST' && session.csrfProtection && !validToken(session, request, rawParams(request))) {
        throw new HttpError(403, 'Invalid CSRF token')
      }
      const end = () => gate.sessions.invalidate(session.id)
      // The user, or the one this session deleted (compat CLI-7), whose logout is recorded as well.
      const user = session.userId === null ? session.deletedUser : { id: session.userId, uname: deps.users.nameOf(session.userId) ?? '' }
      if (!user) end()
      else {
        const actor = { userId: user.id, uname: user.uname, address: request.ip }
        deps.audit.recording(actor, { action: 'logout', target: `user ${user.id} ${user.uname}` }, end)
      }
    }
    return reply.code(302).header('Location', '/index.csp').send()
  }
  app.get('/login/logout.csp', logout)
  app.post('/login/logout.csp', logout)

  function fail(request: FastifyRequest, reply: FastifyReply, session: Session | undefined, status: number, error: string, uname?: string) {
    if (prefersJson(request)) return reply.code(status).send({ error })
    return gate.sendLogin(request, reply, session, { status, error, uname })
  }
}

function prefersJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? ''
  return accept.includes('application/json') && !accept.includes('text/html')
}

/** Only local paths: a stored URL must never send the browser elsewhere. */
function safeRedirect(url: string | null): string {
  return url && url.startsWith('/') && !url.startsWith('//') ? url : '/index.csp'
}
