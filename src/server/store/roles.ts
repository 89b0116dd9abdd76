// Roles: rows of permission bits over hosts and host groups, and the users that hold them. Every write
// bumps the permission generation, since every change here can alter permissions.
import type { RoleFields } from '../../shared/api/roles'
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

export interface RoleRow {
  hostIds: number[]
  groupIds: number[]
  /** Bitmap of Permission bits. */
  permission: number
}

/** A role's own fields, as the admin/roles answers show them. */
export type RoleRecord = RoleFields

export interface RoleDetail extends RoleRecord {
  rows: RoleRow[]
  memberIds: number[]
}

export interface RoleDefinition {
  name: string
  description: string
  admin: boolean
  active: boolean
  rows: readonly RoleRow[]
}

export class RoleRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly permissions: PermissionGeneration
  ) {}

  find(id: number): RoleRecord | undefined {
    const row = this.sql.first(this.db.selectFrom('role').selectAll().where('id', '=', id))
    return row && toRecord(row)
  }

  findByName(name: string): RoleRecord | undefined {
    const row = this.sql.first(this.db.selectFrom('role').selectAll().where('name', '=', name))
    return row && toRecord(row)
  }

  /** Every role with its rows and members, in five queries whatever the number of roles. */
  list(): RoleDetail[] {
    const roles = this.sql.all(this.db.selectFrom('role').selectAll().orderBy('id'))
    const rows = this.sql.all(this.db.selectFrom('role_row').selectAll().orderBy('role_id').orderBy('position'))
    const hosts = groupBy(
      this.sql.all(this.db.selectFrom('role_row_host').selectAll().orderBy('host_id')),
      (h) => h.row_id,
      (h) => h.host_id
    )
    const groups = groupBy(
      this.sql.all(this.db.selectFrom('role_row_group').selectAll().orderBy('group_id')),
      (g) => g.row_id,
      (g) => g.group_id
    )
    const members = groupBy(
      this.sql.all(this.db.selectFrom('user_role').selectAll().orderBy('user_id')),
      (m) => m.role_id,
      (m) => m.user_id
    )
    const rowsByRole = groupBy(
      rows,
      (r) => r.role_id,
      (r): RoleRow => ({
        hostIds: hosts.get(r.id) ?? [],
        groupIds: groups.get(r.id) ?? [],
        permission: r.permission
      })
    )
    return roles.map((r) => ({ ...toRecord(r), rows: rowsByRole.get(r.id) ?? [], memberIds: members.get(r.id) ?? [] }))
  }

  /** The ids among `ids` that name no role. */
  missingRoles(ids: readonly number[]): number[] {
    return missing(ids, (some) => this.sql.all(this.db.selectFrom('role').select('id').where('id', 'in', this.sql.dialect.idList(some))))
  }

  missingHosts(ids: readonly number[]): number[] {
    return missing(ids, (some) => this.sql.all(this.db.selectFrom('host').select('id').where('id', 'in', this.sql.dialect.idList(some))))
  }

  missingGroups(ids: readonly number[]): number[] {
    return missing(ids, (some) =>
      this.sql.all(this.db.selectFrom('host_group').select('id').where('id', 'in', this.sql.dialect.idList(some)))
    )
  }

  create(role: RoleDefinition, memberIds: readonly number[] = []): number {
    return this.sql.transaction(() => {
      const { id } = this.sql.first(
        this.db
          .insertInto('role')
          .values({ name: role.name, description: role.description, admin: flag(role.admin), active: flag(role.active) })
          .returning('id')
      )!
      this.insertRows(id, role.rows)
      this.addMembers(id, memberIds)
      this.permissions.bump()
      return id
    })
  }

  /** Replaces everything but the id and the built-in flag; members only when `memberIds` is given. */
  update(id: number, role: RoleDefinition, memberIds?: readonly number[]): void {
    this.sql.transaction(() => {
      this.sql.run(
        this.db
          .updateTable('role')
          .set({ name: role.name, description: role.description, admin: flag(role.admin), active: flag(role.active) })
          .where('id', '=', id)
      )
      this.sql.run(this.db.deleteFrom('role_row').where('role_id', '=', id))
      this.insertRows(id, role.rows)
      if (memberIds) {
        this.sql.run(this.db.deleteFrom('user_role').where('role_id', '=', id))
        this.addMembers(id, memberIds)
      }
      this.permissions.bump()
    })
  }

  /** False when there was no such role. Rows and memberships go with it (ON DELETE CASCADE). */
  delete(id: number): boolean {
    const deleted = this.sql.run(this.db.deleteFrom('role').where('id', '=', id)).changes > 0
    this.permissions.bump()
    return deleted
  }

  addMembers(id: number, userIds: readonly number[]): void {
    if (userIds.length === 0) return
    this.sql.run(
      this.db
        .insertInto('user_role')
        .values([...new Set(userIds)].map((user_id) => ({ user_id, role_id: id })))
        .onConflict((oc) => oc.doNothing())
    )
    this.permissions.bump()
  }

  removeMembers(id: number, userIds: readonly number[]): void {
    if (userIds.length === 0) return
    this.sql.run(this.db.deleteFrom('user_role').where('role_id', '=', id).where('user_id', 'in', this.sql.dialect.idList(userIds)))
    this.permissions.bump()
  }

  setActive(id: number, active: boolean): void {
    this.sql.run(
      this.db
        .updateTable('role')
        .set({ active: flag(active) })
        .where('id', '=', id)
    )
    this.permissions.bump()
  }

  private insertRows(roleId: number, rows: readonly RoleRow[]): void {
    rows.forEach((row, position) => {
      const { id } = this.sql.first(
        this.db.insertInto('role_row').values({ role_id: roleId, permission: row.permission, position }).returning('id')
      )!
      const hostIds = [...new Set(row.hostIds)]
      const groupIds = [...new Set(row.groupIds)]
      if (hostIds.length > 0) this.sql.run(this.db.insertInto('role_row_host').values(hostIds.map((host_id) => ({ row_id: id, host_id }))))
      if (groupIds.length > 0)
        this.sql.run(this.db.insertInto('role_row_group').values(groupIds.map((group_id) => ({ row_id: id, group_id }))))
    })
  }
}

function flag(on: boolean): number {
  return on ? 1 : 0
}

function toRecord(row: { id: number; name: string; description: string; admin: number; active: number; buildin: number }): RoleRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    admin: row.admin === 1,
    active: row.active === 1,
    buildin: row.buildin === 1
  }
}

function missing(ids: readonly number[], existing: (ids: readonly number[]) => { id: number }[]): number[] {
  if (ids.length === 0) return []
  const found = new Set(existing(ids).map((r) => r.id))
  return [...new Set(ids)].filter((id) => !found.has(id))
}

function groupBy<T, K, V>(items: readonly T[], key: (item: T) => K, value: (item: T) => V): Map<K, V[]> {
  const groups = new Map<K, V[]>()
  for (const item of items) {
    const list = groups.get(key(item))
    if (list) list.push(value(item))
    else groups.set(key(item), [value(item)])
  }
  return groups
}
