// Who holds which role, from admin/roles/list (the user list does not carry roles).
import type { Role } from '../../api/admin'

export function rolesByUser(roles: readonly Role[]): Map<string, Role[]> {
  const byUser = new Map<string, Role[]>()
  for (const role of roles) {
    for (const user of role.members.users) byUser.set(user, [...(byUser.get(user) ?? []), role])
  }
  return byUser
}

/** Roles whose rows grant the collector bit: their members may report as Monit agents. */
export function collectorRoles(roles: readonly Role[]): Role[] {
  return roles.filter((r) => r.active && r.rolerows.some((row) => row.permission.includes('1')))
}
