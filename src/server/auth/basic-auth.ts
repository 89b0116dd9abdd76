// HTTP Basic credentials of a request, checked with a cache that spares the digest for the agents
// that post every few seconds with the same header.
import type { Principal } from '../domain/permissions'
import type { UserRepository } from '../store/users'
import { verifyPassword } from './passwords'
import type { Principals } from './principals'

export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return undefined
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

const MAX_CACHED = 1024

export class BasicAuthenticator {
  /** Header → user id, valid while the users' generation is unchanged (a password change bumps it). */
  private readonly verified = new Map<string, { userId: number; generation: number }>()

  constructor(private readonly users: UserRepository, private readonly principals: Principals) {}

  /** The principal for a valid `Authorization: Basic` header, else undefined. */
  authenticate(header: string | undefined): Principal | undefined {
    if (!header) return undefined
    const hit = this.verified.get(header)
    if (hit && hit.generation === this.users.generation) return this.principals.of(hit.userId)
    const creds = parseBasic(header)
    const user = creds && this.users.credentialsOf(creds.user)
    if (!creds || !user || !verifyPassword(creds.password, { salt: user.password_salt, sha256: user.password_sha256 })) {
      this.verified.delete(header)
      return undefined
    }
    if (this.verified.size >= MAX_CACHED) this.verified.clear()
    this.verified.set(header, { userId: user.id, generation: this.users.generation })
    return this.principals.of(user.id)
  }
}
