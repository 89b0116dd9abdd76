// HTTP Basic credentials of a request, checked with a cache that spares the digest for the agents
// that post every few seconds with the same header, and throttled like the login form.
import type { Principal } from '../domain/permissions'
import type { UserRepository } from '../store/users'
import type { LoginThrottle } from './login-throttle'
import { verifyPassword } from './passwords'
import type { Principals } from './principals'

export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return undefined
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/** Credentials refused unchecked: too many recent failures for this user name from this address. */
export class Throttled {
  constructor(readonly retryAfterSec: number) {}
}

const MAX_CACHED = 1024

export class BasicAuthenticator {
  /** Header → user, valid while the users' generation is unchanged (a password change bumps it). */
  private readonly verified = new Map<string, { userId: number; uname: string; generation: number }>()

  constructor(
    private readonly users: UserRepository,
    private readonly principals: Principals,
    private readonly throttle: LoginThrottle
  ) {}

  /**
   * The principal for a valid `Authorization: Basic` header from `address`; Throttled while that user
   * name is locked from that address, even with the right password; else undefined.
   */
  authenticate(header: string | undefined, address: string): Principal | Throttled | undefined {
    if (!header) return undefined
    const generation = this.users.generation
    const hit = this.verified.get(header)
    if (hit && hit.generation === generation) {
      // Right credentials, refused all the same while the pair is locked.
      const wait = this.throttle.retryAfter(address, hit.uname)
      if (wait > 0) return new Throttled(wait)
      this.throttle.succeeded(address, hit.uname)
      return this.principals.of(hit.userId)
    }
    const creds = parseBasic(header)
    if (!creds) return undefined
    const wait = this.throttle.retryAfter(address, creds.user)
    if (wait > 0) return new Throttled(wait)
    const user = this.users.credentialsOf(creds.user)
    if (!user || !verifyPassword(creds.password, { salt: user.password_salt, sha256: user.password_sha256 })) {
      this.verified.delete(header)
      this.throttle.failed(address, creds.user, user !== undefined)
      return undefined
    }
    if (this.verified.size >= MAX_CACHED) this.verified.clear()
    this.verified.set(header, { userId: user.id, uname: creds.user, generation })
    this.throttle.succeeded(address, creds.user)
    return this.principals.of(user.id)
  }
}
