// HTTP Basic credentials of a request, and a cache that spares the digest and role queries for the
// agents that post every few seconds with the same header.
import { principalOf, type Principal } from '../domain/permissions'
import type { UserRepository } from '../store/users'
import { verifyPassword } from './passwords'

export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return undefined
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

const MAX_CACHED = 1024

export class BasicAuthenticator {
  private readonly cache = new Map<string, { principal: Principal; generation: number }>()

  constructor(private readonly users: UserRepository) {}

  /** The principal for a valid `Authorization: Basic` header, else undefined. */
  authenticate(header: string | undefined): Principal | undefined {
    if (!header) return undefined
    const hit = this.cache.get(header)
    if (hit && hit.generation === this.users.generation) return hit.principal
    const creds = parseBasic(header)
    const user = creds && this.users.credentialsOf(creds.user)
    if (!creds || !user || !verifyPassword(creds.password, { salt: user.password_salt, sha256: user.password_sha256 })) {
      this.cache.delete(header)
      return undefined
    }
    const principal = principalOf(user, this.users.grantsOf(user.id))
    if (this.cache.size >= MAX_CACHED) this.cache.clear()
    this.cache.set(header, { principal, generation: this.users.generation })
    return principal
  }
}
