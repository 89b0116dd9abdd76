// HTTP Basic credentials of a request, checked with a cache that spares the password hash (scrypt, tens
// of milliseconds) for the agents that post every few seconds with the same header, and throttled like
// the login form. A header not in the cache is checked on the thread pool: a fleet of agents with
// accounts of their own, arriving after a restart, would otherwise hold the event loop a hash each.
import { createHash } from 'node:crypto'
import type { RefusalReason } from '../../shared/api/refusal-reasons'
import type { Principal } from '../domain/permissions'
import type { AuditLogRepository } from '../store/audit-log'
import type { UserRepository } from '../store/users'
import type { LoginThrottle } from './login-throttle'
import { checkPassword } from './passwords'
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
  constructor(
    readonly retryAfterSec: number,
    readonly uname: string
  ) {}
}

/** Credentials refused, and why (the collector tells its refused agents apart: collector/refused-agents.ts). */
export class Refused {
  constructor(
    readonly reason: Extract<RefusalReason, 'no_credentials' | 'unknown_user' | 'wrong_password'>,
    /** As sent; empty without credentials. */
    readonly uname: string
  ) {}
}

const MAX_CACHED = 1024
const NO_CREDENTIALS = new Refused('no_credentials', '')

export class BasicAuthenticator {
  /**
   * SHA-256 of a header (no clear-text password kept) → its user. Valid while the users' generation is
   * unchanged; after a change (any user or role edit bumps it) while the user's stored hash is the one
   * verified, so that editing a user does not cost every agent a hash.
   */
  private readonly verified = new Map<string, Verified>()
  /** Checks under way, by header and address: as many as connections in flight, each gone when done. */
  private readonly checking = new Map<string, Promise<Principal | Refused>>()

  constructor(
    private readonly users: UserRepository,
    private readonly principals: Principals,
    private readonly throttle: LoginThrottle,
    /** Where failed checks, and each one passed by a hash (not the cache: an agent posts every few seconds), are recorded. */
    private readonly audit?: AuditLogRepository,
    /**
     * Runs those records; undefined when storage refused one (a full disk: metrics/storage-health.ts), so
     * that agents and scrapers are still answered.
     */
    private readonly bestEffort: <T>(write: () => T) => T | undefined = (write) => write()
  ) {}

  /**
   * The principal for a valid `Authorization: Basic` header from `address`; Throttled while that user
   * name is locked from that address, even with the right password; else Refused.
   */
  async authenticate(header: string | undefined, address: string): Promise<Principal | Throttled | Refused> {
    if (!header) return NO_CREDENTIALS
    const generation = this.users.generation
    const key = createHash('sha256').update(header).digest('base64')
    const hit = this.verified.get(key)
    if (hit) {
      // Right credentials, refused all the same while the pair is locked.
      const wait = this.throttle.retryAfter(address, hit.uname)
      if (wait > 0) return new Throttled(wait, hit.uname)
      if (this.stillValid(hit, generation)) {
        this.throttle.succeeded(address, hit.uname)
        return this.principals.of(hit.userId) ?? new Refused('unknown_user', hit.uname)
      }
    }
    const creds = parseBasic(header)
    if (!creds) return NO_CREDENTIALS
    const wait = this.throttle.retryAfter(address, creds.user)
    if (wait > 0) return new Throttled(wait, creds.user)
    // Agents behind one address restarting together send the same header at once: one check for all of
    // them, and one count against the throttle (as many would lock the right password out).
    const checkKey = `${key} ${address}`
    let checking = this.checking.get(checkKey)
    if (!checking) {
      checking = this.check(key, creds, address, generation).finally(() => this.checking.delete(checkKey))
      this.checking.set(checkKey, checking)
    }
    return checking
  }

  private async check(
    key: string,
    creds: { user: string; password: string },
    address: string,
    generation: number
  ): Promise<Principal | Refused> {
    const user = this.users.credentialsOf(creds.user)
    // Counted before the check, which waits on the thread pool: parallel guesses would all pass the throttle.
    this.throttle.failed(address, creds.user, user !== undefined)
    // The name as sent, bounded: a failure's row must not grow with what an attacker sends.
    const actor = { userId: user?.id ?? null, uname: creds.user.slice(0, 255), address }
    if (!user || !(await checkPassword(this.users, user, creds.password))) {
      this.verified.delete(key)
      const detail = user ? 'basic: wrong password' : 'basic: unknown user'
      this.bestEffort(() => this.audit?.record(actor, { action: 'login-failed', target: `user ${actor.uname}`, detail }))
      return new Refused(user ? 'wrong_password' : 'unknown_user', creds.user)
    }
    this.bestEffort(() => this.audit?.record(actor, { action: 'login', target: `user ${user.id} ${actor.uname}`, detail: 'basic' }))
    if (this.verified.size >= MAX_CACHED) this.verified.clear()
    // Read back: the check may just have replaced a legacy hash.
    const passwordHash = this.users.credentialsOf(creds.user)?.password_hash ?? user.password_hash
    this.verified.set(key, { userId: user.id, uname: creds.user, generation, passwordHash })
    this.throttle.succeeded(address, creds.user)
    // Deleted meanwhile: no one of this name any more.
    return this.principals.of(user.id) ?? new Refused('unknown_user', creds.user)
  }

  private stillValid(hit: Verified, generation: number): boolean {
    if (hit.generation === generation) return true
    const current = this.users.credentialsOf(hit.uname)
    if (current?.id !== hit.userId || current.password_hash !== hit.passwordHash) return false
    hit.generation = generation
    return true
  }
}

interface Verified {
  userId: number
  uname: string
  generation: number
  passwordHash: string
}
