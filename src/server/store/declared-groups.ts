// The host groups a host's agent declares (Monit 5.34+ `set mmonit … with hostgroups`, agent protocol
// §4.1), kept in step with each message: groups created when missing, memberships marked `declared`.
// A membership an administrator assigned (`assigned`, groups.ts) outlives the agent's declaration.
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

/**
 * Most host groups the collector creates, all agents together: past it a declared group that does not
 * exist is left out. MAX_HOST_GROUPS bounds one message; this bounds an agent that sends new names in
 * every message. An administrator may still create groups past it.
 */
export const MAX_GROUPS_CREATED_BY_AGENTS = 1000

export interface DeclaredChange {
  /** Whether any membership changed (roles and alert rules see groups: their caches must be renewed). */
  changed: boolean
  /** Declared groups not created because MAX_GROUPS_CREATED_BY_AGENTS groups exist. */
  notCreated: string[]
}

export class DeclaredGroupRepository {
  private readonly readDeclared

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly permissions: PermissionGeneration
  ) {
    // A partial index holds only declared memberships: a host whose agent declares none costs one index probe.
    this.readDeclared = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('host_group_member')
        .innerJoin('host_group', 'host_group.id', 'host_group_member.group_id')
        .select(['host_group.id', 'host_group.name'])
        .where('host_group_member.host_id', '=', p.hostId)
        .where('host_group_member.declared', '=', 1)
    )
  }

  /** The names of the groups the host's agent declares, in no particular order. */
  of(hostId: number): string[] {
    return this.readDeclared.all({ hostId }).map((g) => g.name)
  }

  /** Makes `names` (distinct) the groups the host's agent declares. Call inside the message's transaction. */
  declare(hostId: number, names: readonly string[]): DeclaredChange {
    const current = this.readDeclared.all({ hostId })
    const wanted = new Set(names)
    const have = new Set(current.map((g) => g.name))
    const dropped = current.filter((g) => !wanted.has(g.name)).map((g) => g.id)
    const missing = names.filter((name) => !have.has(name))
    if (dropped.length === 0 && missing.length === 0) return { changed: false, notCreated: [] }
    if (dropped.length > 0) this.undeclare(hostId, dropped)
    const { ids, notCreated } = missing.length > 0 ? this.groupsNamed(missing) : { ids: [], notCreated: [] }
    if (ids.length > 0) {
      this.sql.run(
        this.db
          .insertInto('host_group_member')
          .values(ids.map((group_id) => ({ group_id, host_id: hostId, assigned: 0, declared: 1 })))
          .onConflict((oc) => oc.columns(['group_id', 'host_id']).doUpdateSet({ declared: 1 }))
      )
    }
    const changed = dropped.length > 0 || ids.length > 0
    if (changed) this.permissions.bump()
    return { changed, notCreated }
  }

  /** The agent no longer declares these groups: memberships an administrator assigned stay, unmarked. */
  private undeclare(hostId: number, groupIds: readonly number[]): void {
    const these = this.sql.dialect.idList(groupIds)
    this.sql.run(
      this.db.deleteFrom('host_group_member').where('host_id', '=', hostId).where('group_id', 'in', these).where('assigned', '=', 0)
    )
    this.sql.run(this.db.updateTable('host_group_member').set({ declared: 0 }).where('host_id', '=', hostId).where('group_id', 'in', these))
  }

  /** The ids of the groups so named, created where missing while fewer than the cap exist. */
  private groupsNamed(names: readonly string[]): { ids: number[]; notCreated: string[] } {
    const existing = this.sql.all(this.db.selectFrom('host_group').select(['id', 'name']).where('name', 'in', names))
    const ids = existing.map((g) => g.id)
    const known = new Set(existing.map((g) => g.name))
    const toCreate = names.filter((name) => !known.has(name))
    if (toCreate.length === 0) return { ids, notCreated: [] }
    const count = Number(this.sql.first(this.db.selectFrom('host_group').select((eb) => eb.fn.countAll<number>().as('n')))!.n)
    const room = Math.max(0, MAX_GROUPS_CREATED_BY_AGENTS - count)
    for (const name of toCreate.slice(0, room)) {
      // Another instance on the same PostgreSQL database may have created it meanwhile.
      const created = this.sql.first(
        this.db
          .insertInto('host_group')
          .values({ name })
          .onConflict((oc) => oc.column('name').doNothing())
          .returning('id')
      )
      ids.push(created?.id ?? this.sql.first(this.db.selectFrom('host_group').select('id').where('name', '=', name))!.id)
    }
    return { ids, notCreated: toCreate.slice(room) }
  }
}
