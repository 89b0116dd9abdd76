// The local user of an identity provider's user (issue 30 §2): the one linked to it; else, when linking by
// e-mail is on and the provider says the address is verified, the one unlinked user with that address,
// linked now; else a new user, linked, whose password nobody knows (an administrator can set one). With
// a group mapping (the console's table), the user's roles are what its groups give, at every login: the
// provider is where SSO users' access is managed.
import { randomBytes } from 'node:crypto'
import { rolesForGroups, unameFor, type OidcIdentity } from '../domain/single-sign-on'
import type { Store } from '../store/store'
import { newPassword } from './passwords'

export type SsoUser = { userId: number; uname: string; created: boolean; linked: boolean } | { refused: string }

export async function userForIdentity(store: Store, identity: OidcIdentity, linkByEmail: boolean): Promise<SsoUser> {
  const { users, singleSignOn } = store
  const mapping = singleSignOn.groupRoles()
  const roleIds = mapping.length > 0 ? rolesForGroups(mapping, identity.groups) : undefined
  let userId = singleSignOn.userOf(identity.issuer, identity.subject)
  let created = false
  let linked = false
  if (userId === undefined && linkByEmail && identity.email && identity.emailVerified) {
    const candidates = singleSignOn.unlinkedWithEmail(identity.email)
    if (candidates.length > 1)
      return { refused: `${candidates.length} users have the e-mail address ${identity.email}: an administrator must tell which` }
    if (candidates.length === 1) {
      userId = candidates[0]
      singleSignOn.link(userId, identity.issuer, identity.subject)
      linked = true
    }
  }
  if (userId === undefined) {
    const uname = unameFor(identity, (name) => users.findByName(name) !== undefined)
    const password = await newPassword(randomBytes(32).toString('base64url'), uname)
    userId = store.transaction(() => {
      const id = users.create({ uname, password, roleIds: roleIds ?? [], fullname: identity.name, email: identity.email })
      singleSignOn.link(id, identity.issuer, identity.subject)
      return id
    })
    created = true
  } else if (roleIds) {
    users.update(userId, { roleIds })
  }
  return { userId, uname: users.nameOf(userId) ?? '', created, linked }
}
