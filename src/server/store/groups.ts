// Host groups (spec: admin/groups): named sets of hosts that roles grant permissions on. Deleting a group
// and changing its members bump the permission generation.
import { deleteRoleRowsLeftUnscoped } from './host-admin'
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

export interface HostGroup {
  id: number
  name: string
  /** Member host ids, ascending. */
  hosts: number[]
}

export class GroupRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly permissions: PermissionGeneration
  ) {}

  /** Every host with its name, for the group editor. */
  hostNames(): { id: number; name: string }[] {
    return this.sql.all(this.db.selectFrom('host').select(['id', 'hostname as name']).orderBy('hostname').orderBy('id'))
  }

  list(): HostGroup[] {
    const groups = this.sql.all(this.db.selectFrom('host_group').select(['id', 'name']).orderBy('name'))
    const members = this.sql.all(this.db.selectFrom('host_group_member').select(['group_id', 'host_id']).orderBy('host_id'))
    const byGroup = new Map(groups.map((g) => [g.id, { ...g, hosts: [] as number[] }]))
    for (const m of members) byGroup.get(m.group_id)?.hosts.push(m.host_id)
    return [...byGroup.values()]
  }

  find(id: number): HostGroup | undefined {
    const group = this.sql.first(this.db.selectFrom('host_group').select(['id', 'name']).where('id', '=', id))
    if (!group) return undefined
    const members = this.sql.all(this.db.selectFrom('host_group_member').select('host_id').where('group_id', '=', id).orderBy('host_id'))
    return { ...group, hosts: members.map((m) => m.host_id) }
  }

  idOfName(name: string): number | undefined {
    return this.sql.first(this.db.selectFrom('host_group').select('id').where('name', '=', name))?.id
  }

  create(name: string): number {
    return this.sql.first(this.db.insertInto('host_group').values({ name }).returning('id'))!.id
  }

  rename(id: number, name: string): void {
    this.sql.run(this.db.updateTable('host_group').set({ name }).where('id', '=', id))
  }

  /** False when there is no such group. */
  delete(id: number): boolean {
    return this.sql.transaction(() => {
      const rows = this.sql.all(this.db.selectFrom('role_row_group').select('row_id').where('group_id', '=', id))
      const deleted = this.sql.run(this.db.deleteFrom('host_group').where('id', '=', id)).changes === 1
      deleteRoleRowsLeftUnscoped(
        this.db,
        this.sql,
        rows.map((r) => r.row_id)
      )
      if (deleted) this.permissions.bump()
      return deleted
    })
  }

  /** The ids among `hostIds` that name no host. */
  unknownHosts(hostIds: readonly number[]): number[] {
    const known = new Set(
      this.sql.all(this.db.selectFrom('host').select('id').where('id', 'in', this.sql.dialect.idList(hostIds))).map((h) => h.id)
    )
    return hostIds.filter((id) => !known.has(id))
  }

  addHosts(id: number, hostIds: readonly number[]): void {
    this.sql.run(
      this.db
        .insertInto('host_group_member')
        .values(hostIds.map((host_id) => ({ group_id: id, host_id })))
        .onConflict((oc) => oc.doNothing())
    )
    this.permissions.bump()
  }

  removeHosts(id: number, hostIds: readonly number[]): void {
    this.sql.run(
      this.db.deleteFrom('host_group_member').where('group_id', '=', id).where('host_id', 'in', this.sql.dialect.idList(hostIds))
    )
    this.permissions.bump()
  }
}
