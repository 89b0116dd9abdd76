// What the Single sign-on screen shows and checks, apart from React: the mapping table's rows with their
// roles' names, the "Add mapping" and edit forms' checks (as admin/sso/groups/update checks a group: trimmed,
// not empty, at most 255 characters, the bound of a group the server reads from a claim), the password
// login mode in words, and the redirect URI the provider must register.
import type { Role } from '../../api/admin'
import { SSO_GROUP_MAX } from '../../../shared/api/single-sign-on'
import type { SsoGroupMapping, SsoSettings } from '../../api/single-sign-on'

/** Said under the mapping table. */
export const MAPPING_NOTE =
  "At each single sign-on login, a user's roles become those its groups give; with no mapping at all, roles stay as administrators set them."

/** The path of the callback the provider sends browsers back to (server: http/sso-login.ts). */
export const CALLBACK_PATH = '/auth/oidc/callback'

export interface MappedRole {
  id: number
  /** The role's name, or "role <id>" while the roles are not loaded (or it was deleted meanwhile). */
  name: string
  /** False for a role that is not known (yet). */
  known: boolean
  active: boolean
  admin: boolean
}

export interface MappingRow {
  group: string
  roles: MappedRole[]
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0)

/** The table's rows: groups in name order, each with its roles in name order. Groups that give no role
 *  (the server keeps none such) are left out. */
export function mappingRows(groups: readonly SsoGroupMapping[], roles: readonly Role[] | undefined): MappingRow[] {
  const known = new Map((roles ?? []).map((r) => [r.id, r]))
  return groups
    .filter((g) => g.roleids.length > 0)
    .map((g) => ({
      group: g.group,
      roles: [...new Set(g.roleids)]
        .map((id): MappedRole => {
          const role = known.get(id)
          return role
            ? { id, name: role.name, known: true, active: role.active, admin: role.admin }
            : { id, name: `role ${id}`, known: false, active: true, admin: false }
        })
        .sort((a, b) => byName(a.name, b.name) || a.id - b.id)
    }))
    .sort((a, b) => byName(a.group, b.group))
}

/** The role picker's choices, in name order: the value is the role's id as text. */
export function roleChoices(roles: readonly Role[]): { value: string; label: string }[] {
  return [...roles]
    .sort((a, b) => byName(a.name, b.name) || a.id - b.id)
    .map((r) => ({ value: String(r.id), label: r.active ? r.name : `${r.name} (inactive)` }))
}

/** Why `text` is not a group name the server takes, or undefined. `mapped`: groups in the table already
 *  (adding one of them again would replace its roles: its row's Edit is the way). */
export function groupNameProblem(text: string, mapped: readonly string[] = []): string | undefined {
  const group = text.trim()
  if (group === '') return "Enter a group as the provider's groups claim names it"
  if (group.length > SSO_GROUP_MAX) return `At most ${SSO_GROUP_MAX} characters`
  if (mapped.includes(group)) return `${group} is mapped already: change its roles with its Edit button`
  return undefined
}

/** Why the picked roles cannot be saved, or undefined: a mapping gives at least one role (Remove takes
 *  a mapping away). */
export function rolesProblem(roleIds: readonly string[]): string | undefined {
  return roleIds.length === 0 ? 'Pick at least one role' : undefined
}

export interface MappingFields {
  group: string
  /** The picked roles' ids as text (the picker's values). */
  roleids: string[]
}

export type MappingProblems = Partial<Record<keyof MappingFields, string>>

export const emptyMappingFields = (): MappingFields => ({ group: '', roleids: [] })

/** Every field's problem (the form shows each under its field); empty when the mapping can be sent. */
export function mappingProblems(fields: MappingFields, mapped: readonly string[]): MappingProblems {
  const problems: MappingProblems = {}
  const group = groupNameProblem(fields.group, mapped)
  if (group) problems.group = group
  const roles = rolesProblem(fields.roleids)
  if (roles) problems.roleids = roles
  return problems
}

/** The arguments of admin/sso/groups/update from fields without problems. */
export function newMapping(fields: MappingFields): { group: string; roleIds: number[] } {
  return { group: fields.group.trim(), roleIds: [...new Set(fields.roleids.map(Number))].sort((a, b) => a - b) }
}

/** Who may log in with a password, in words. */
export function passwordLoginText(settings: Pick<SsoSettings, 'passwordlogin' | 'breakglassuser'>): string {
  if (settings.passwordlogin === 'on') return 'Everyone can log in with a password'
  return `Browsers log in with single sign-on; only ${settings.breakglassuser ?? 'the break-glass user'} keeps a password. Scripts and M/Monit API clients keep passwords and API tokens.`
}

/** The redirect URI to register at the provider: the console's URL as this browser reached it (`origin`
 *  and the page's `pathname`, which has a prefix behind a proxy that serves it under one) and the callback's
 *  path. The server takes the same URL from --console-url when given, else from where it listens. */
export function redirectUri(origin: string, pathname = '/'): string {
  const base = pathname.replace(/\/[^/]*\.[^/]*$/, '').replace(/\/+$/, '')
  return `${origin}${base}${CALLBACK_PATH}`
}
