// Users and the role grants that make up a caller's permissions.
import { digestPassword } from '../auth/passwords'
import type { RoleGrant } from '../domain/permissions'
import type { QueryBuilder, SqlRunner } from './sql'

export const BUILTIN_ROLE = { Administrator: 1, Collector: 2 } as const
/** Created with the schema, but deletable: the role api/1 gives non-admin users. */
export const DEFAULT_USER_ROLE = 3

export interface NewUser {
  uname: string
  password: string
  fullname?: string
  title?: string
  roleIds: readonly number[]
}

export interface Credentials { id: number; uname: string; password_salt: string; password_sha256: string }

export class UserRepository {
  /** Bumped on every write that can change someone's permissions; caches compare against it. */
  generation = 0

  constructor(private readonly db: QueryBuilder, private readonly sql: SqlRunner) {}

  count(): number {
    return this.sql.first(this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')))!.n
  }

  nameOf(id: number): string | undefined {
    return this.sql.first(this.db.selectFrom('user').select('uname').where('id', '=', id))?.uname
  }

  credentialsOf(uname: string): Credentials | undefined {
    return this.sql.first(this.db.selectFrom('user')
      .select(['id', 'uname', 'password_salt', 'password_sha256']).where('uname', '=', uname))
  }

  create(user: NewUser, now = Math.floor(Date.now() / 1000)): number {
    return this.sql.transaction(() => {
      const d = digestPassword(user.password)
      const { id } = this.sql.first(this.db.insertInto('user').values({
        uname: user.uname, password_salt: d.salt, password_sha256: d.sha256, password_md5: d.md5,
        fullname: user.fullname ?? '', title: user.title ?? '', created_at: now
      }).returning('id'))!
      if (user.roleIds.length > 0) {
        this.sql.run(this.db.insertInto('user_role').values(user.roleIds.map((role_id) => ({ user_id: id, role_id }))))
      }
      this.generation++
      return id
    })
  }

  /** The user's roles with their rows, host groups expanded to hosts. */
  grantsOf(userId: number): RoleGrant[] {
    const roles = this.sql.all(this.db.selectFrom('role').innerJoin('user_role', 'user_role.role_id', 'role.id')
      .select(['role.id', 'role.admin', 'role.active']).where('user_role.user_id', '=', userId))
    return roles.map((r) => ({ admin: r.admin === 1, active: r.active === 1, rows: this.rowsOf(r.id) }))
  }

  private rowsOf(roleId: number): RoleGrant['rows'] {
    const rows = this.sql.all(this.db.selectFrom('role_row').select(['id', 'permission'])
      .where('role_id', '=', roleId).orderBy('position'))
    return rows.map((row) => ({
      permission: row.permission,
      hostIds: this.sql.all(this.db.selectFrom('role_row_host').select('host_id').where('row_id', '=', row.id)).map((h) => h.host_id),
      groupIds: this.sql.all(this.db.selectFrom('role_row_group').select('group_id').where('row_id', '=', row.id)).map((g) => g.group_id),
      groupHostIds: this.sql.all(this.db.selectFrom('role_row_group')
        .innerJoin('host_group_member', 'host_group_member.group_id', 'role_row_group.group_id')
        .select('host_group_member.host_id').where('role_row_group.row_id', '=', row.id)).map((h) => h.host_id)
    }))
  }
}
