// Single sign-on with OpenID Connect (issue 30 §2): GET /auth/oidc/login sends the browser to the identity
// provider (authorization code flow with PKCE; its state, nonce and verifier kept in the browser's session),
// and GET /auth/oidc/callback logs the session in as the local user of the provider's user (sso-users.ts),
// once openid-client has checked the answer (state, code, ID token signature, issuer, audience, expiry,
// nonce). The callback comes from the provider's site by design: its state, bound to this session, is what
// stops a login another site made a browser do.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PENDING_LOGIN_SEC, type OidcClient, type PendingLogin } from '../auth/oidc-client'
import { userForIdentity } from '../auth/sso-users'
import type { Session } from '../auth/sessions'
import type { Store } from '../store/store'
import type { SessionGate } from './session-gate'
import { SSO_CALLBACK_PATH, SSO_LOGIN_PATH } from './sso-paths'

/** The session attribute holding the login under way. */
const PENDING_KEY = 'oidc.pending'
/** The provider's error text shown, at most. */
const MAX_PROVIDER_TEXT = 200

export interface SsoDeps {
  gate: SessionGate
  store: Store
  oidc: OidcClient
  now?: () => number
}

export async function ssoRoutes(app: FastifyInstance, deps: SsoDeps): Promise<void> {
  const { gate, store, oidc } = deps
  const nowSec = () => Math.floor((deps.now ?? Date.now)() / 1000)
  const refuse = (request: FastifyRequest, reply: FastifyReply, session: Session | undefined, status: number, error: string) =>
    gate.sendLogin(request, reply, session, { status, error })

  app.get(SSO_LOGIN_PATH, async (request, reply) => {
    const session = gate.ensureSession(request, reply)
    let start: { url: string; pending: PendingLogin }
    try {
      start = await oidc.start(nowSec())
    } catch (err) {
      request.log.warn(`single sign-on: the identity provider ${oidc.settings.issuer} cannot be reached: ${(err as Error).message}`)
      return refuse(request, reply, session, 503, 'The identity provider cannot be reached: try again shortly, or log in with a password')
    }
    gate.sessions.setAttributes(session.id, { ...session.attributes, [PENDING_KEY]: JSON.stringify(start.pending) })
    return reply.code(302).header('Location', start.url).header('Cache-Control', 'no-store').send()
  })

  app.get(SSO_CALLBACK_PATH, async (request, reply) => {
    const session = gate.session(request)
    const pending = pendingOf(session)
    if (!session || !pending)
      return refuse(request, reply, session, 400, 'This single sign-on was not started in this browser, or its session ended: log in again')
    // One use: a replayed callback finds nothing.
    const { [PENDING_KEY]: _, ...rest } = session.attributes
    gate.sessions.setAttributes(session.id, rest)
    const query = new URL(request.url, 'http://callback').searchParams
    const audit = (detail: string, userId: number | null = null, uname = '') =>
      store.auditLog.record({ userId, uname, address: request.ip }, { action: 'login-failed', target: 'single sign-on', detail })
    if (nowSec() - pending.startedAt > PENDING_LOGIN_SEC)
      return refuse(request, reply, session, 400, 'This single sign-on took too long: log in again')
    const providerError = query.get('error')
    if (providerError) {
      const text = `${providerError}${query.get('error_description') ? `: ${query.get('error_description')}` : ''}`.slice(
        0,
        MAX_PROVIDER_TEXT
      )
      audit(`provider refused: ${text}`)
      return refuse(request, reply, session, 403, `The identity provider refused the login (${text})`)
    }
    let identity
    try {
      const callback = new URL(oidc.redirectUri)
      callback.search = query.toString()
      identity = await oidc.finish(callback, pending)
    } catch (err) {
      audit(`answer refused: ${(err as Error).message}`.slice(0, 500))
      return refuse(request, reply, session, 401, "The identity provider's answer did not check out: log in again")
    }
    const outcome = await userForIdentity(store, identity, oidc.settings.linkByEmail)
    if ('refused' in outcome) {
      audit(outcome.refused)
      return refuse(request, reply, session, 403, outcome.refused)
    }
    const actor = { userId: outcome.userId, uname: outcome.uname, address: request.ip }
    if (!gate.mayLogIn(outcome.userId)) {
      store.auditLog.record(actor, {
        action: 'login-failed',
        target: `user ${outcome.userId} ${outcome.uname}`,
        detail: 'collector-only account'
      })
      return refuse(request, reply, session, 403, 'This account may only send agent data to /collector: it cannot log in')
    }
    store.auditLog.recording(
      actor,
      {
        action: 'login',
        target: `user ${outcome.userId} ${outcome.uname}`,
        detail: `single sign-on${outcome.created ? ', user created' : outcome.linked ? ', linked by e-mail' : ''}`
      },
      () => gate.logIn(request, reply, session, outcome.userId, true)
    )
    return reply.code(302).header('Location', '/index.csp').send()
  })
}

function pendingOf(session: Session | undefined): PendingLogin | undefined {
  const text = session?.attributes[PENDING_KEY]
  if (!text) return undefined
  try {
    const p = JSON.parse(text) as Partial<PendingLogin>
    return typeof p.state === 'string' && typeof p.nonce === 'string' && typeof p.verifier === 'string' && typeof p.startedAt === 'number'
      ? (p as PendingLogin)
      : undefined
  } catch {
    return undefined
  }
}
