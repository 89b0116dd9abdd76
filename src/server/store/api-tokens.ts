// Personal API tokens: rows keyed by the token's SHA-256 (auth/api-tokens.ts makes both; the store never
// sees a token). Revoking deletes the row, so a lookup never finds a revoked token.
import type { Selectable } from 'kysely'
import type { ApiTokenTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type ApiTokenRow = Selectable<ApiTokenTable>
/** What lists show: everything but the hash. */
export type ApiTokenListing = Omit<ApiTokenRow, 'token_hash'> & { uname: string }
export type NewApiToken = Omit<ApiTokenRow, 'id' | 'last_used_at'>

const LISTED = [
  'api_token.id',
  'api_token.user_id',
  'user.uname',
  'api_token.name',
  'api_token.prefix',
  'api_token.scope',
  'api_token.created_at',
  'api_token.expires_at',
  'api_token.last_used_at'
] as const

export class ApiTokenRepository {
  private readonly byHash
  private readonly used

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.byHash = sql.prepare((p: { hash: string }) => db.selectFrom('api_token').selectAll().where('token_hash', '=', p.hash))
    this.used = sql.prepare((p: { id: number; now: number }) =>
      db.updateTable('api_token').set({ last_used_at: p.now }).where('id', '=', p.id)
    )
  }

  findByHash(hash: string): ApiTokenRow | undefined {
    return this.byHash.get({ hash })
  }

  /** The new token's id; undefined, with nothing stored, when the user holds `max` tokens already. */
  create(token: NewApiToken, max: number): number | undefined {
    return this.sql.transaction(() => {
      const held = this.sql.first(
        this.db
          .selectFrom('api_token')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', token.user_id)
      )!
      if (Number(held.n) >= max) return undefined
      return this.sql.first(this.db.insertInto('api_token').values(token).returning('id'))!.id
    })
  }

  markUsed(id: number, now: number): void {
    this.used.run({ id, now })
  }

  /** One user's tokens, or every user's (undefined), newest first. */
  list(userId: number | undefined): ApiTokenListing[] {
    let query = this.db.selectFrom('api_token').innerJoin('user', 'user.id', 'api_token.user_id').select(LISTED)
    if (userId !== undefined) query = query.where('api_token.user_id', '=', userId)
    return this.sql.all(query.orderBy('api_token.id', 'desc'))
  }

  /** The token's owner, or undefined when there is no such token. */
  ownerOf(id: number): number | undefined {
    return this.sql.first(this.db.selectFrom('api_token').select('user_id').where('id', '=', id))?.user_id
  }

  /** False when there was no such token. */
  delete(id: number): boolean {
    return this.sql.run(this.db.deleteFrom('api_token').where('id', '=', id)).changes > 0
  }
}
