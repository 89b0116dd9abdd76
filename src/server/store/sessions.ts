// Login sessions, persisted so that a restart does not log API clients out (compat AUTH-8).
import type { Insertable, Selectable } from 'kysely'
import type { SessionTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type SessionRow = Selectable<SessionTable>

export class SessionRepository {
  private readonly byId
  private readonly touch

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.byId = sql.prepare((p: { id: string }) => db.selectFrom('session').selectAll().where('id', '=', p.id))
    this.touch = sql.prepare((p: { id: string; now: number }) =>
      db.updateTable('session').set({ last_access: p.now }).where('id', '=', p.id)
    )
  }

  find(id: string): SessionRow | undefined {
    return this.byId.get({ id })
  }

  create(row: Insertable<SessionTable>): void {
    this.sql.run(this.db.insertInto('session').values(row))
  }

  touched(id: string, now: number): void {
    this.touch.run({ id, now })
  }

  update(id: string, changes: Partial<Omit<SessionRow, 'id'>>): void {
    this.sql.run(this.db.updateTable('session').set(changes).where('id', '=', id))
  }

  delete(id: string): void {
    this.sql.run(this.db.deleteFrom('session').where('id', '=', id))
  }

  /** Ends every session of the user but `keep` (the caller's own, when users change their password). */
  deleteOfUser(userId: number, keep: string | undefined): void {
    let query = this.db.deleteFrom('session').where('user_id', '=', userId)
    if (keep !== undefined) query = query.where('id', '!=', keep)
    this.sql.run(query)
  }

  /** Ends the sessions idle since before `cutoff` (seconds); how many ended. */
  deleteIdleSince(cutoff: number): number {
    return this.sql.run(this.db.deleteFrom('session').where('last_access', '<', cutoff)).changes
  }

  /**
   * Keeps the `max` most recently used anonymous sessions, `keep` (the one just made) always among them
   * (compat AUTH-8). Logged-in sessions, and those of a deleted user, are never evicted for anonymous ones.
   */
  evictAnonymousBeyond(max: number, keep: string): void {
    this.evictBeyond(null, max, keep)
  }

  /** Keeps the user's `max` most recently used sessions, `keep` (the one logging in) always among them. */
  evictOfUserBeyond(userId: number, max: number, keep: string): void {
    this.evictBeyond(userId, max, keep)
  }

  /** The pool: one user's sessions, or the anonymous ones (null). */
  private evictBeyond(userId: number | null, max: number, keep: string): void {
    let pool = this.db.selectFrom('session').where('user_id', userId === null ? 'is' : '=', userId)
    if (userId === null) pool = pool.where('deleted_user_id', 'is', null)
    const excess = Number(this.sql.first(pool.select((eb) => eb.fn.countAll<number>().as('n')))!.n) - max
    if (excess <= 0) return
    const victims = this.sql
      .all(
        pool
          .select('id')
          .where('id', '!=', keep)
          .orderBy('last_access', 'desc')
          .orderBy('created_at', 'desc')
          .limit(excess)
          .offset(Math.max(0, max - 1))
      )
      .map((v) => v.id)
    if (victims.length > 0) this.sql.run(this.db.deleteFrom('session').where('id', 'in', victims))
  }
}
