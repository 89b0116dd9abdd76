// admin/sso/get and admin/sso/groups/update (issue 30 §2, our extension, administrators): single sign-on as
// the command line configured it, and the mapping table from identity provider groups to roles, applied
// at each single sign-on login (auth/sso-users.ts). The client secret is never answered.
import { arg, idList } from '../../shared/api/args'
import { SSO_GROUP_MAX, ssoSettings, type SsoSettings } from '../../shared/api/single-sign-on'
import { groupsOf } from '../domain/single-sign-on'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument } from '../http/errors'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'

/** The bound on the table: groups mapped, and roles per group. */
export const MAX_MAPPED_GROUPS = 1000

export function adminSingleSignOnEndpoints({ store, oidc, breakGlassUser }: ApiDeps): ApiEndpoint[] {
  const current = (): SsoSettings => {
    const byGroup = new Map<string, number[]>()
    for (const m of store.singleSignOn.groupRoles()) {
      const roles = byGroup.get(m.group_name)
      if (roles) roles.push(m.role_id)
      else byGroup.set(m.group_name, [m.role_id])
    }
    return {
      enabled: oidc !== undefined,
      issuer: oidc?.issuer ?? null,
      groupsclaim: oidc?.groupsClaim ?? null,
      linkbyemail: oidc?.linkByEmail ?? false,
      passwordlogin: breakGlassUser === undefined ? 'on' : 'break-glass',
      breakglassuser: breakGlassUser ?? null,
      groups: [...byGroup].map(([group, roleids]) => ({ group, roleids }))
    }
  }
  return [
    endpoint({
      path: 'admin/sso/get',
      summary: 'Single sign-on as configured, and the roles each identity provider group gives',
      extension: true,
      answer: ssoSettings,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: current
    }),
    endpoint({
      path: 'admin/sso/groups/update',
      summary: 'Sets the roles an identity provider group gives (no roleid: the group gives none)',
      extension: true,
      answer: ssoSettings,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { group: arg.required(SSO_GROUP_MAX), roleid: idList },
      handle: (ctx) => {
        const { group, roleid } = ctx.params
        const roleIds = roleid ?? []
        // The group as a claim would name it: groupsOf's own bounds.
        if (groupsOf({ g: group }, 'g').length === 0) throw badArgument('group', 'is not a group name a claim can hold')
        const missing = store.roles.missingRoles(roleIds)
        if (missing.length > 0) throw badArgument('roleid', `no role with id ${missing.join(', ')}`)
        const mapped = new Set(store.singleSignOn.groupRoles().map((m) => m.group_name))
        if (roleIds.length > 0 && !mapped.has(group) && mapped.size >= MAX_MAPPED_GROUPS) {
          throw badArgument('group', `at most ${MAX_MAPPED_GROUPS} groups can be mapped`)
        }
        store.auditLog.recording(
          actorOf(ctx),
          { action: 'sso.groups.update', target: `sso group ${group}`, detail: detailOf({ roleid: roleIds }) },
          () => store.singleSignOn.setGroupRoles(group, roleIds)
        )
        return current()
      }
    })
  ]
}
