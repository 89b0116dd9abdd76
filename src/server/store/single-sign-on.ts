// Single sign-on's tables (issue 30 §2): which identity provider user each local user is, and which roles
// each provider group gives.
import type { GroupRole } from '../domain/single-sign-on'
import type { QueryBuilder, SqlRunner } from './sql'

export class SingleSignOnRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /** The local user linked to the provider's user, if any. */
  userOf(issuer: string, subject: string): number | undefined {
    return this.sql.first(this.db.selectFrom('user_oidc').select('user_id').where('issuer', '=', issuer).where('subject', '=', subject))
      ?.user_id
  }

  link(userId: number, issuer: string, subject: string): void {
    this.sql.run(this.db.insertInto('user_oidc').values({ user_id: userId, issuer, subject }))
  }

  /** The users with this e-mail address (ignoring case) not linked to any provider user yet, by id. */
  unlinkedWithEmail(email: string): number[] {
    return this.sql
      .all(
        this.db
          .selectFrom('user')
          .leftJoin('user_oidc', 'user_oidc.user_id', 'user.id')
          .select('user.id')
          .where('user_oidc.user_id', 'is', null)
          .where((eb) => eb(eb.fn('lower', ['user.email']), '=', email.toLowerCase()))
          .orderBy('user.id')
      )
      .map((u) => u.id)
  }

  groupRoles(): GroupRole[] {
    return this.sql.all(this.db.selectFrom('oidc_group_role').selectAll().orderBy('group_name').orderBy('role_id'))
  }

  /** Replaces the roles `group` gives (none: the group gives nothing). */
  setGroupRoles(group: string, roleIds: readonly number[]): void {
    this.sql.transaction(() => {
      this.sql.run(this.db.deleteFrom('oidc_group_role').where('group_name', '=', group))
      const unique = [...new Set(roleIds)]
      if (unique.length > 0)
        this.sql.run(this.db.insertInto('oidc_group_role').values(unique.map((role_id) => ({ group_name: group, role_id }))))
    })
  }
}
