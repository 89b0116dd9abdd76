// setup/status and setup/complete (our extension, api/2 only, public): while no user exists, the person
// at the server machine creates the administrator and the collector user from the console, without a
// session (http/setup.ts says who may). Only as JSON: a cross-site form cannot post it without a CORS
// preflight, which is never granted. The check and the inserts run in one transaction, so of two tabs
// racing, exactly one creates the administrator.
import { BUILTIN_ROLE } from '../../shared/api/roles'
import { newPassword } from '../auth/passwords'
import { setupArgs, setupResult, setupStatusAnswer } from '../../shared/api/setup'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument } from '../http/errors'
import { urlsOfServer } from '../http/listening-urls'
import { assertSetupOpen, setupDone } from '../http/setup'
import { detailOf } from './audit'
import type { ApiDeps } from './deps'

export function setupEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const { users } = store
  const admit = (request: Parameters<typeof assertSetupOpen>[0]) => assertSetupOpen(request, users)
  return [
    endpoint({
      path: 'setup/status',
      methods: ['GET'],
      access: 'public',
      versions: [2],
      extension: true,
      admit,
      summary: 'Whether first-run setup is open to this caller (200), done (409) or only possible on the server machine (403)',
      params: {},
      answer: setupStatusAnswer,
      handle: ({ request }) => ({ setup: 'open' as const, urls: urlsOfServer(request.server.server) })
    }),
    endpoint({
      path: 'setup/complete',
      methods: ['POST'],
      access: 'public',
      versions: [2],
      extension: true,
      admit,
      input: 'json',
      summary: 'Creates the administrator and the collector user (first run only, JSON body, from the server machine)',
      params: setupArgs,
      answer: setupResult,
      handle: async ({ params: p, request }) => {
        if (p.collectoruname === p.adminuname) throw badArgument('collectoruname', "must differ from the administrator's name")
        // Hashed before the transaction: it must not wait on the thread pool.
        const [adminPassword, collectorPassword] = await Promise.all([
          newPassword(p.adminpassword, p.adminuname),
          newPassword(p.collectorpassword, p.collectoruname)
        ])
        const created = store.transaction(() => {
          // Checked again inside the transaction: the one that commits first wins, the other gets 409.
          if (users.count() > 0) throw setupDone()
          const admin = users.create({
            uname: p.adminuname,
            password: adminPassword,
            fullname: p.adminfullname || 'Administrator',
            roleIds: [BUILTIN_ROLE.Administrator]
          })
          const collector = users.create({
            uname: p.collectoruname,
            password: collectorPassword,
            fullname: 'Monit collector',
            roleIds: [BUILTIN_ROLE.Collector]
          })
          // Who made the first accounts, and from where: the first rows of the audit log.
          const actor = { userId: admin, uname: p.adminuname, address: request.ip }
          store.auditLog.record(actor, {
            action: 'setup',
            target: `user ${admin} ${p.adminuname}`,
            detail: detailOf({ collector: p.collectoruname })
          })
          return { admin: { id: admin, uname: p.adminuname }, collector: { id: collector, uname: p.collectoruname } }
        })
        return { ...created, urls: urlsOfServer(request.server.server) }
      }
    })
  ]
}
