// Login sessions, persisted so that a restart does not log API clients out (compat AUTH-8).
import type { Selectable } from 'kysely'
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

  create(row: SessionRow): void {
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

  count(): number {
    return this.sql.first(this.db.selectFrom('session').select((eb) => eb.fn.countAll<number>().as('n')))!.n
  }

  /** Evicts the least recently used sessions beyond `max`, unauthenticated ones first (compat AUTH-8). */
  evictBeyond(max: number): void {
    const excess = this.count() - max
    if (excess <= 0) return
    const victims = this.sql.all(
      this.db
        .selectFrom('session')
        .select('id')
        .orderBy((eb) => eb.case().when('user_id', 'is', null).then(0).else(1).end())
        .orderBy('last_access')
        .limit(excess)
    )
    this.sql.run(
      this.db.deleteFrom('session').where(
        'id',
        'in',
        victims.map((v) => v.id)
      )
    )
  }
}
