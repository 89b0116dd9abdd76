// Hosts as administrators see them (spec: admin/hosts): the list, the editable record, and deletion of
// a host with everything recorded for it (the schema cascades to services, events, intervals, groups).
// Deleted hosts leave roles and groups: deleting bumps the permission generation.
import type { HostChanges, HostRow } from './hosts'
import type { PermissionGeneration } from './permission-generation'
import type { QueryBuilder, SqlRunner } from './sql'

export interface HostListRow {
  id: number
  hostname: string
  ipaddr_in: string
  ipaddr_out: string
  description: string
  agent_version: string
  status: number
  heartbeat: number
}

export class HostAdminRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly permissions: PermissionGeneration
  ) {}

  list(): HostListRow[] {
    return this.sql.all(
      this.db
        .selectFrom('host')
        .select(['id', 'hostname', 'ipaddr_in', 'ipaddr_out', 'description', 'agent_version', 'status', 'heartbeat'])
        .orderBy('hostname')
        .orderBy('id')
    )
  }

  find(id: number): HostRow | undefined {
    return this.sql.first(this.db.selectFrom('host').selectAll().where('id', '=', id))
  }

  update(id: number, changes: HostChanges): void {
    this.sql.run(this.db.updateTable('host').set(changes).where('id', '=', id))
  }

  /** Trust on first use: pins the agent's certificate unless one is pinned already. */
  pinCertificate(id: number, sha256: string): void {
    this.sql.run(this.db.updateTable('host').set({ agent_cert_sha256: sha256 }).where('id', '=', id).where('agent_cert_sha256', '=', ''))
  }

  /** Keeps another certificate the agent presented, for an administrator to accept. */
  sawCertificate(id: number, sha256: string): void {
    this.sql.run(this.db.updateTable('host').set({ agent_cert_seen_sha256: sha256 }).where('id', '=', id))
  }

  /** False when there is no such host. */
  delete(id: number): boolean {
    return this.sql.transaction(() => this.deleteHosts([id])) === 1
  }

  /**
   * Deletes every inactive host (stopped, or silent: status Inactive or heartbeat dead) that has been
   * so since `cutoff` (Unix seconds) or earlier. Returns the ids of those that went.
   */
  deleteInactiveSince(cutoff: number): number[] {
    return this.sql.transaction(() => {
      const ids = this.sql
        .all(
          this.db
            .selectFrom('host')
            .select('id')
            .where('inactive_since', '<=', cutoff)
            .where((eb) => eb.or([eb('status', '=', 1), eb('heartbeat', '=', 0)]))
        )
        .map((h) => h.id)
      this.deleteHosts(ids)
      return ids
    })
  }

  /** Call inside a transaction. */
  private deleteHosts(ids: readonly number[]): number {
    if (ids.length === 0) return 0
    const rows = this.sql.all(
      this.db.selectFrom('role_row_host').select('row_id').distinct().where('host_id', 'in', this.sql.dialect.idList(ids))
    )
    const deleted = this.sql.run(this.db.deleteFrom('host').where('id', 'in', this.sql.dialect.idList(ids))).changes
    deleteRoleRowsLeftUnscoped(
      this.db,
      this.sql,
      rows.map((r) => r.row_id)
    )
    if (deleted > 0) this.permissions.bump()
    return deleted
  }
}

/**
 * Deleting a host or a host group cascades to the role rows that name it. A row left naming nothing
 * would apply to every host (the schema's meaning of an empty row) and so widen the role; such a row
 * granted only what was deleted, so it goes too. Call inside the deleting transaction.
 */
export function deleteRoleRowsLeftUnscoped(db: QueryBuilder, sql: SqlRunner, rowIds: readonly number[]): void {
  if (rowIds.length === 0) return
  sql.run(
    db
      .deleteFrom('role_row')
      .where('id', 'in', rowIds)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('role_row_host').select('row_id').whereRef('role_row_host.row_id', '=', 'role_row.id')))
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('role_row_group').select('row_id').whereRef('role_row_group.row_id', '=', 'role_row.id')))
      )
  )
}
