// Host groups (spec: admin/groups): named sets of hosts that roles grant permissions on. Deleting a group
// and changing its members bump the permission generation. A membership is the administrator's
// (`assigned`), the host agent's (`declared`, declared-groups.ts), or both; it lasts while either holds.
import { deleteRoleRowsLeftUnscoped } from './host-admin'
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

export interface HostGroup {
  id: number
  name: string
  /** Member host ids, ascending. */
  hosts: number[]
}

/** A group's members that their agent declares (Monit 5.34+ `with hostgroups`), ascending. */
export interface DeclaredMembers {
  id: number
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

  /** The members their agent declares, of each group that has some. */
  declaredMembers(): DeclaredMembers[] {
    const rows = this.sql.all(
      this.db
        .selectFrom('host_group_member')
        .select(['group_id', 'host_id'])
        .where('declared', '=', 1)
        .orderBy('group_id')
        .orderBy('host_id')
    )
    const byGroup = new Map<number, number[]>()
    for (const r of rows) byGroup.set(r.group_id, [...(byGroup.get(r.group_id) ?? []), r.host_id])
    return [...byGroup].map(([id, hosts]) => ({ id, hosts }))
  }

  /** The members of group `id` their agent declares, ascending. */
  declaredHosts(id: number): number[] {
    return this.sql
      .all(
        this.db.selectFrom('host_group_member').select('host_id').where('group_id', '=', id).where('declared', '=', 1).orderBy('host_id')
      )
      .map((m) => m.host_id)
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

  /** Assigns the hosts to the group; one whose agent declares the group is now assigned too. */
  addHosts(id: number, hostIds: readonly number[]): void {
    this.sql.run(
      this.db
        .insertInto('host_group_member')
        // Once each: PostgreSQL refuses an upsert that would update one row twice.
        .values([...new Set(hostIds)].map((host_id) => ({ group_id: id, host_id, assigned: 1, declared: 0 })))
        .onConflict((oc) => oc.columns(['group_id', 'host_id']).doUpdateSet({ assigned: 1 }))
    )
    this.permissions.bump()
  }

  /** Ends the administrator's assignment; a membership the agent declares stays while it does. */
  removeHosts(id: number, hostIds: readonly number[]): void {
    const these = this.sql.dialect.idList(hostIds)
    this.sql.run(this.db.deleteFrom('host_group_member').where('group_id', '=', id).where('host_id', 'in', these).where('declared', '=', 0))
    this.sql.run(this.db.updateTable('host_group_member').set({ assigned: 0 }).where('group_id', '=', id).where('host_id', 'in', these))
    this.permissions.bump()
  }

  /**
   * A stored message changed memberships on the collector's own connection: on SQLite its generation is
   * the ingest thread's, so this thread's permission caches are told here.
   */
  membershipsChangedElsewhere(): void {
    this.permissions.bump()
  }
}
