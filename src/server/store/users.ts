// Users and the role grants that make up a caller's permissions.
import type { RoleGrant } from '../domain/permissions'
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

/** Created with the schema, but deletable: the role api/1 gives non-admin users. */
export const DEFAULT_USER_ROLE = 3

/** The descriptive fields of a user, as the API names them. */
export interface UserProfile {
  fullname: string
  title: string
  email: string
  phone: string
  mobile: string
  imname: string
  imtype: string
  image: string
  /** IANA name the notifications e-mailed to the user give times in; '' the server's zone */
  timezone: string
}

/** A password as stored (auth/passwords.ts makes it; the store never sees clear text). */
export interface StoredPassword {
  /** Scheme-tagged (auth/password-hash.ts). */
  hash: string
  /** Random per password version: what the API returns for the password and takes back as "unchanged". */
  token: string
  /** A weak password (auth/weak-passwords.ts), or one still stored with a legacy digest. */
  unsafe: boolean
}

export interface NewUser extends Partial<UserProfile> {
  uname: string
  password: StoredPassword
  roleIds: readonly number[]
}

/** What an update changes; fields left undefined keep their value. */
export interface UserChange extends Partial<UserProfile> {
  uname?: string
  password?: StoredPassword
  /** Replaces every role membership. */
  roleIds?: readonly number[]
}

export interface UserRecord extends UserProfile {
  id: number
  uname: string
  password_token: string
  /** 1 or 0 */
  password_unsafe: number
}

export interface Credentials {
  id: number
  uname: string
  password_hash: string
  /** 1 or 0 */
  password_unsafe: number
}

const RECORD_COLUMNS = [
  'id',
  'uname',
  'password_token',
  'password_unsafe',
  'fullname',
  'title',
  'email',
  'phone',
  'mobile',
  'imname',
  'imtype',
  'image',
  'timezone'
] as const

export class UserRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly permissions: PermissionGeneration
  ) {}

  /** Bumped on every write that can change someone's permissions (permission-generation.ts); caches compare against it. */
  get generation(): number {
    return this.permissions.value
  }

  count(): number {
    return this.sql.first(this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')))!.n
  }

  nameOf(id: number): string | undefined {
    return this.sql.first(this.db.selectFrom('user').select('uname').where('id', '=', id))?.uname
  }

  credentialsOf(uname: string): Credentials | undefined {
    return this.sql.first(this.db.selectFrom('user').select(['id', 'uname', 'password_hash', 'password_unsafe']).where('uname', '=', uname))
  }

  list(): UserRecord[] {
    return this.sql.all(this.db.selectFrom('user').select(RECORD_COLUMNS).orderBy('id'))
  }

  find(id: number): UserRecord | undefined {
    return this.sql.first(this.db.selectFrom('user').select(RECORD_COLUMNS).where('id', '=', id))
  }

  findByName(uname: string): UserRecord | undefined {
    return this.sql.first(this.db.selectFrom('user').select(RECORD_COLUMNS).where('uname', '=', uname))
  }

  /** The ids among `ids` that name no user. */
  missing(ids: readonly number[]): number[] {
    if (ids.length === 0) return []
    const found = new Set(
      this.sql.all(this.db.selectFrom('user').select('id').where('id', 'in', this.sql.dialect.idList(ids))).map((u) => u.id)
    )
    return [...new Set(ids)].filter((id) => !found.has(id))
  }

  create(user: NewUser, now = Math.floor(Date.now() / 1000)): number {
    return this.sql.transaction(() => {
      const { id } = this.sql.first(
        this.db
          .insertInto('user')
          .values({
            uname: user.uname,
            ...passwordColumns(user.password),
            fullname: user.fullname ?? '',
            title: user.title ?? '',
            email: user.email ?? '',
            phone: user.phone ?? '',
            mobile: user.mobile ?? '',
            imname: user.imname ?? '',
            imtype: user.imtype ?? '',
            image: user.image ?? '',
            timezone: user.timezone ?? '',
            created_at: now
          })
          .returning('id')
      )!
      if (user.roleIds.length > 0) {
        this.sql.run(this.db.insertInto('user_role').values(user.roleIds.map((role_id) => ({ user_id: id, role_id }))))
      }
      this.permissions.bump()
      return id
    })
  }

  update(id: number, change: UserChange): void {
    const { password, roleIds, ...fields } = change
    this.sql.transaction(() => {
      const columns = { ...definedOnly(fields), ...(password === undefined ? {} : passwordColumns(password)) }
      if (Object.keys(columns).length > 0) this.sql.run(this.db.updateTable('user').set(columns).where('id', '=', id))
      if (roleIds) {
        this.sql.run(this.db.deleteFrom('user_role').where('user_id', '=', id))
        if (roleIds.length > 0) {
          this.sql.run(this.db.insertInto('user_role').values([...new Set(roleIds)].map((role_id) => ({ user_id: id, role_id }))))
        }
      }
      // Also invalidates cached Basic credentials when the password changed.
      this.permissions.bump()
    })
  }

  /**
   * A login's upgrade of the same password: another hash or flag, the token kept. Only while `replaced`
   * is still the stored hash, so that a password changed meanwhile is not overwritten.
   */
  refreshPassword(id: number, replaced: string, password: Omit<StoredPassword, 'token'>): void {
    this.sql.run(
      this.db
        .updateTable('user')
        .set({ password_hash: password.hash, password_unsafe: password.unsafe ? 1 : 0 })
        .where('id', '=', id)
        .where('password_hash', '=', replaced)
    )
  }

  /** False when there was no such user. Sessions and memberships go with it (ON DELETE CASCADE). */
  delete(id: number): boolean {
    const deleted = this.sql.run(this.db.deleteFrom('user').where('id', '=', id)).changes > 0
    this.permissions.bump()
    return deleted
  }

  roleIdsOf(userId: number): number[] {
    return this.sql
      .all(this.db.selectFrom('user_role').select('role_id').where('user_id', '=', userId).orderBy('role_id'))
      .map((r) => r.role_id)
  }

  /** True when the user holds an active administrator role. */
  isAdmin(userId: number): boolean {
    return this.sql.first(this.activeAdmins().select('user_role.user_id').where('user_role.user_id', '=', userId)) !== undefined
  }

  /** How many users hold an active administrator role. */
  administratorCount(): number {
    return this.sql.first(this.activeAdmins().select((eb) => eb.fn.count<number>('user_role.user_id').distinct().as('n')))!.n
  }

  private activeAdmins() {
    return this.db
      .selectFrom('user_role')
      .innerJoin('role', 'role.id', 'user_role.role_id')
      .where('role.admin', '=', 1)
      .where('role.active', '=', 1)
  }

  /** The user's roles with their rows, host groups expanded to hosts. */
  grantsOf(userId: number): RoleGrant[] {
    const roles = this.sql.all(
      this.db
        .selectFrom('role')
        .innerJoin('user_role', 'user_role.role_id', 'role.id')
        .select(['role.id', 'role.admin', 'role.active'])
        .where('user_role.user_id', '=', userId)
    )
    return roles.map((r) => ({ admin: r.admin === 1, active: r.active === 1, rows: this.rowsOf(r.id) }))
  }

  private rowsOf(roleId: number): RoleGrant['rows'] {
    const rows = this.sql.all(this.db.selectFrom('role_row').select(['id', 'permission']).where('role_id', '=', roleId).orderBy('position'))
    return rows.map((row) => ({
      permission: row.permission,
      hostIds: this.sql.all(this.db.selectFrom('role_row_host').select('host_id').where('row_id', '=', row.id)).map((h) => h.host_id),
      groupIds: this.sql.all(this.db.selectFrom('role_row_group').select('group_id').where('row_id', '=', row.id)).map((g) => g.group_id),
      groupHostIds: this.sql
        .all(
          this.db
            .selectFrom('role_row_group')
            .innerJoin('host_group_member', 'host_group_member.group_id', 'role_row_group.group_id')
            .select('host_group_member.host_id')
            .where('role_row_group.row_id', '=', row.id)
        )
        .map((h) => h.host_id)
    }))
  }
}

function passwordColumns(p: StoredPassword) {
  return { password_hash: p.hash, password_token: p.token, password_unsafe: p.unsafe ? 1 : 0 }
}

/** Drops undefined entries: kysely would write them as NULL. */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
}
