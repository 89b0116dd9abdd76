// Single sign-on's decisions (issue 30 §2), from an identity provider's claims: the groups a user is in,
// the roles they give (the mapping table), and the name a user created at its first login gets.
import { SSO_GROUP_MAX } from '../../shared/api/single-sign-on'

export interface OidcSettings {
  issuer: string
  clientId: string
  clientSecret: string
  /** The claim holding the user's groups. */
  groupsClaim: string
  /** A provider user with a verified e-mail address is linked to the one unlinked local user with that address. */
  linkByEmail: boolean
}

/** An issuer the server may reach over plain http: loopback only. */
export function loopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === 'localhost' || /^127\./.test(url.hostname) || url.hostname === '[::1]')
}

/** A row of the mapping table: provider group → role. */
export interface GroupRole {
  group_name: string
  role_id: number
}

/** The identity provider's user, from its ID token and userinfo claims. */
export interface OidcIdentity {
  issuer: string
  subject: string
  username?: string
  email?: string
  emailVerified: boolean
  name?: string
  groups: string[]
}

/** Groups read from a claim, each at most this long, at most this many (a token's claims are the provider's to bound, not ours to trust). */
const MAX_GROUPS = 500
const MAX_UNAME_CHARS = 64

/** The claim's groups: an array of strings, or one string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim]
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : []
  return [...new Set(list.filter((g): g is string => typeof g === 'string' && g !== '' && g.length <= SSO_GROUP_MAX))].slice(0, MAX_GROUPS)
}

/** The roles `groups` give under `mapping`, each once, in id order. */
export function rolesForGroups(mapping: readonly GroupRole[], groups: readonly string[]): number[] {
  const member = new Set(groups)
  return [...new Set(mapping.filter((m) => member.has(m.group_name)).map((m) => m.role_id))].sort((a, b) => a - b)
}

/**
 * The name of a user made at its first login: the provider's username, else the e-mail's local part,
 * else "sso-" and the subject; letters, digits and . _ @ - only; "-2", "-3" … until `taken` says no.
 */
export function unameFor(identity: OidcIdentity, taken: (uname: string) => boolean): string {
  const raw = identity.username || identity.email?.split('@')[0] || `sso-${identity.subject}`
  const base =
    raw.replace(/[^A-Za-z0-9._@-]/g, '').slice(0, MAX_UNAME_CHARS) || `sso-${identity.subject.replace(/[^A-Za-z0-9]/g, '').slice(0, 32)}`
  if (!taken(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, MAX_UNAME_CHARS - String(n).length - 1)}-${n}`
    if (!taken(candidate)) return candidate
  }
}
