// The caller's own account, for the console: who is logged in, what the console may offer them, and
// the session's CSRF token in the same answer (our extension; M/Monit keeps this in its own pages).
import { Permission } from '../../shared/codes'
import { holdsAnywhere } from '../domain/permissions'
import { endpoint } from '../http/api'
import type { ApiDeps } from './deps'

export function profileEndpoints({ store }: ApiDeps) {
  return [
    endpoint({
      path: 'profile/get', methods: ['GET', 'POST'], params: {},
      handle: ({ principal, session }) => {
        const user = store.users.find(principal.userId)
        return {
          id: principal.userId,
          uname: principal.uname,
          fullname: user?.fullname ?? '',
          email: user?.email ?? '',
          admin: principal.admin,
          /** May start/stop/restart/monitor/unmonitor services on at least one host. */
          serviceactions: holdsAnywhere(principal, Permission.ServiceActions),
          csrftoken: session.csrfToken
        }
      }
    })
  ]
}
