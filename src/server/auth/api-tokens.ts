// Personal API tokens (issue 26): `ovs_` and 32 random bytes, sent as `Authorization: Bearer …`. Only
// their SHA-256 is stored (a fast hash suits 256 random bits: no guessing to slow down). Every request
// reads the token's row and its owner's permissions afresh, so a revoke, an expiry, a demotion or a
// deleted owner takes effect at the next request; the last-use stamp is written at most once a minute.
import { createHash, randomBytes } from 'node:crypto'
import type { ApiToken, ApiTokenScope, CreatedApiToken } from '../../shared/api/api-tokens'
import { mayOpenSession, type Principal } from '../domain/permissions'
import type { ApiTokenListing, ApiTokenRepository } from '../store/api-tokens'
import { HttpError } from '../web/http-error'
import type { Principals } from './principals'

export const TOKEN_PREFIX = 'ovs_'
/** The characters of a token kept in clear, to tell a user's tokens apart. */
const SHOWN_CHARACTERS = TOKEN_PREFIX.length + 8
/** A token is TOKEN_PREFIX and 43 base64url characters (32 bytes). */
const TOKEN_SHAPE = /^ovs_[A-Za-z0-9_-]{43}$/
export const MAX_TOKENS_PER_USER = 50
const MARK_USED_EVERY_SEC = 60

/** Who a valid token speaks for, and what it may do. */
export interface TokenHolder {
  principal: Principal
  token: { id: number; scope: ApiTokenScope }
}

export interface NewToken {
  name: string
  scope: ApiTokenScope
  /** Absent: never expires. */
  expiresInDays?: number
}

export class ApiTokenService {
  constructor(
    private readonly repo: ApiTokenRepository,
    private readonly principals: Principals,
    private readonly now = () => Math.floor(Date.now() / 1000),
    /** Runs the last-use stamp, which a read can do without (a full disk must not refuse the request). */
    private readonly bestEffort: <T>(write: () => T) => T | undefined = (write) => write()
  ) {}

  /** The one place tokens are made: the token itself is in this answer only. */
  create(userId: number, wanted: NewToken): CreatedApiToken {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
    const now = this.now()
    const row = {
      user_id: userId,
      name: wanted.name,
      token_hash: hashOf(token),
      prefix: token.slice(0, SHOWN_CHARACTERS),
      scope: wanted.scope,
      created_at: now,
      expires_at: wanted.expiresInDays === undefined ? null : now + wanted.expiresInDays * 86_400
    }
    const id = this.repo.create(row, MAX_TOKENS_PER_USER)
    if (id === undefined) throw new HttpError(400, `a user holds at most ${MAX_TOKENS_PER_USER} API tokens: revoke one first`)
    const listing = this.repo.list(userId).find((t) => t.id === id)!
    return { ...toApi(listing), token }
  }

  /** One user's tokens, or every user's (undefined); never a token or its hash. */
  list(userId: number | undefined): ApiToken[] {
    return this.repo.list(userId).map(toApi)
  }

  /**
   * The one place tokens are revoked: `by` may revoke its own, an administrator (`asAdmin`) anyone's.
   * A token the caller may not revoke is reported as missing, like one that does not exist.
   */
  revoke(id: number, by: Principal, asAdmin: boolean): void {
    const owner = this.repo.ownerOf(id)
    if (owner === undefined || (owner !== by.userId && !(asAdmin && by.admin))) throw new HttpError(404, `no API token with id ${id}`)
    this.repo.delete(id)
  }

  /** The holder of a live token; undefined for an unknown, revoked or expired one, or an owner gone or collector-only. */
  authenticate(token: string): TokenHolder | undefined {
    if (!TOKEN_SHAPE.test(token)) return undefined
    const row = this.repo.findByHash(hashOf(token))
    if (!row) return undefined
    const now = this.now()
    if (row.expires_at !== null && row.expires_at <= now) return undefined
    const principal = this.principals.of(row.user_id)
    if (!principal || !mayOpenSession(principal)) return undefined
    if (row.last_used_at === null || now - row.last_used_at >= MARK_USED_EVERY_SEC) this.bestEffort(() => this.repo.markUsed(row.id, now))
    return { principal, token: { id: row.id, scope: row.scope } }
  }
}

/** What a request with a token not valid now gets, on the API and /metrics alike. */
export function invalidTokenError(): HttpError {
  return new HttpError(401, 'the API token is not valid (unknown, revoked or expired)', { 'WWW-Authenticate': 'Bearer' })
}

/** The token of an `Authorization: Bearer …` header ('' when it holds none); undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || !/^bearer(\s|$)/i.test(header)) return undefined
  return header.slice(6).trim()
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function toApi(t: ApiTokenListing): ApiToken {
  return {
    id: t.id,
    userid: t.user_id,
    uname: t.uname,
    name: t.name,
    prefix: t.prefix,
    scope: t.scope,
    created: t.created_at,
    expires: t.expires_at,
    lastused: t.last_used_at
  }
}
