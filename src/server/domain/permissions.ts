// Who may do what on which host: the union of the caller's active roles (spec: Authentication 5).
import { Permission } from '../../shared/codes'

export interface RoleRowGrant {
  permission: number
  hostIds: readonly number[]
  groupIds: readonly number[]
  /** Hosts reached through the row's host groups, already expanded. */
  groupHostIds: readonly number[]
}

export interface RoleGrant {
  admin: boolean
  active: boolean
  rows: readonly RoleRowGrant[]
}

export interface Principal {
  userId: number
  uname: string
  admin: boolean
  /** Bits granted on every host, including hosts that register later (rows with no hosts or groups). */
  everyHost: number
  /** Bits granted per host id. */
  perHost: ReadonlyMap<number, number>
}

export function principalOf(user: { id: number; uname: string }, roles: readonly RoleGrant[]): Principal {
  let admin = false
  let everyHost = 0
  const perHost = new Map<number, number>()
  for (const role of roles) {
    if (!role.active) continue
    admin ||= role.admin
    for (const row of role.rows) {
      if (row.hostIds.length === 0 && row.groupIds.length === 0) everyHost |= row.permission
      for (const id of [...row.hostIds, ...row.groupHostIds]) perHost.set(id, (perHost.get(id) ?? 0) | row.permission)
    }
  }
  return { userId: user.id, uname: user.uname, admin, everyHost, perHost }
}

/** True when the principal holds `bit` on the host (undefined: a host that is not registered yet). */
export function mayOnHost(p: Principal, hostId: number | undefined, bit: number): boolean {
  if (p.admin || (p.everyHost & bit) !== 0) return true
  return hostId !== undefined && ((p.perHost.get(hostId) ?? 0) & bit) !== 0
}

export function mayCollect(p: Principal, hostId: number | undefined): boolean {
  return mayOnHost(p, hostId, Permission.Collector)
}

/** True when the principal holds `bit` on at least one host (or on every host). */
export function holdsAnywhere(p: Principal, bit: number): boolean {
  return p.admin || (p.everyHost & bit) !== 0 || [...p.perHost.values()].some((bits) => (bits & bit) !== 0)
}

/** The hosts on which the principal holds `bit`; undefined when it holds it on every host. */
export function hostsWith(p: Principal, bit: number): number[] | undefined {
  if (p.admin || (p.everyHost & bit) !== 0) return undefined
  return [...p.perHost].filter(([, bits]) => (bits & bit) !== 0).map(([id]) => id)
}

/** The hosts the principal may view (see `hostsWith`). */
export function viewableHostIds(p: Principal): number[] | undefined {
  return hostsWith(p, Permission.View)
}

/**
 * False for a user whose only permission is Collector: the account agents post with, whose password sits
 * in every monitrc, must not open a console or API session (issue 26). A user holding nothing at all may
 * (it sees an empty console until an administrator grants it a role).
 */
export function mayOpenSession(p: Principal): boolean {
  if (p.admin) return true
  const beyondCollector = ~Permission.Collector
  if ((p.everyHost & beyondCollector) !== 0) return true
  let collects = (p.everyHost & Permission.Collector) !== 0
  for (const bits of p.perHost.values()) {
    if ((bits & beyondCollector) !== 0) return true
    collects ||= (bits & Permission.Collector) !== 0
  }
  return !collects
}
