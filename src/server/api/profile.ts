// The caller's own account, for the console (our extension; M/Monit keeps this in its own pages):
// profile/get says who is logged in, what the console may offer them and the session's CSRF token;
// profile/update changes their own name, e-mail, time zone and password (the old one required).
import { z } from 'zod'
import { Permission } from '../../shared/codes'
import { newPassword } from '../auth/passwords'
import { verifyPassword } from '../auth/password-hash'
import type { Principal } from '../domain/permissions'
import { holdsAnywhere } from '../domain/permissions'
import type { Session } from '../auth/sessions'
import { endpoint } from '../http/api'
import { badArgument } from '../http/errors'
import { tooManyFailures } from '../web/too-many-failures'
import { emailRule, fullNameRule, passwordRule } from '../../shared/api/users'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { profile } from '../../shared/api/account'
import { timeZoneRule } from '../../shared/time-zone'
import { serverTimeZone } from '../alerting/alert-time'

export function profileEndpoints({ store, sessions, throttle }: ApiDeps) {
  const profileOf = (principal: Principal, session: Session | undefined) => {
    const user = store.users.find(principal.userId)
    return {
      id: principal.userId,
      uname: principal.uname,
      fullname: user?.fullname ?? '',
      email: user?.email ?? '',
      timezone: user?.timezone ?? '',
      servertimezone: serverTimeZone(),
      admin: principal.admin,
      /** May start/stop/restart/monitor/unmonitor services on at least one host. */
      serviceactions: holdsAnywhere(principal, Permission.ServiceActions),
      // An API token's caller has no session, and needs no CSRF token.
      csrftoken: session?.csrfToken ?? ''
    }
  }
  return [
    endpoint({
      path: 'profile/get',
      summary: 'Who is logged in, what the console may offer them, and the CSRF token',
      extension: true,
      answer: profile,
      methods: ['GET', 'POST'],
      params: {},
      handle: ({ principal, session }) => profileOf(principal, session)
    }),
    endpoint({
      path: 'profile/update',
      asUser: true,
      summary: "Changes the caller's own name, e-mail, time zone and password (the old one required)",
      extension: true,
      answer: profile,
      methods: ['POST'],
      mutation: true,
      needsSession: true,
      params: {
        fullname: fullNameRule.optional(),
        email: emailRule.optional(),
        timezone: timeZoneRule.optional(),
        oldpassword: z.string().optional(),
        password: passwordRule.optional()
      },
      handle: async (ctx) => {
        const { params, principal, session, request } = ctx
        if (params.password !== undefined) {
          if (params.oldpassword === undefined) throw badArgument('oldpassword', 'is required to set a new password')
          // A stolen session must not become a way to guess the password at full speed.
          const wait = throttle.retryAfter(request.ip, principal.uname)
          if (wait > 0) throw tooManyFailures(wait)
          const credentials = store.users.credentialsOf(principal.uname)
          // Counted before the check, which waits on the thread pool: parallel guesses would all pass the throttle.
          throttle.failed(request.ip, principal.uname, credentials !== undefined)
          if (!credentials || !(await verifyPassword(params.oldpassword, credentials.password_hash))) {
            throw badArgument('oldpassword', 'does not match your current password')
          }
          throttle.succeeded(request.ip, principal.uname)
        }
        const password = params.password === undefined ? undefined : await newPassword(params.password, principal.uname)
        const what = {
          action: 'profile.update',
          target: `user ${principal.userId} ${principal.uname}`,
          detail: detailOf({
            fullname: params.fullname,
            email: params.email,
            timezone: params.timezone,
            passwordChanged: password !== undefined
          })
        }
        store.auditLog.recording(actorOf(ctx), what, () =>
          store.users.update(principal.userId, { fullname: params.fullname, email: params.email, timezone: params.timezone, password })
        )
        // Whoever knew the old password is logged out everywhere else.
        if (params.password !== undefined) sessions.endOtherSessionsOf(principal.userId, session)
        return profileOf(principal, session)
      }
    })
  ]
}
