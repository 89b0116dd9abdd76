// Hosts: registration and per-message state (collector), silence detection (watchdog).
import type { Selectable, Updateable } from 'kysely'
import type { HostTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type HostRow = Selectable<HostTable>
export type HostChanges = Updateable<HostTable>

export class HostRepository {
  private readonly byAgent
  private readonly byId
  private readonly insertNew
  private readonly dueForSilence
  private readonly bumpEvents

  constructor(private readonly db: QueryBuilder, private readonly sql: SqlRunner) {
    const hosts = () => db.selectFrom('host').selectAll()
    this.byAgent = sql.prepare((p: { agentId: string }) => hosts().where('agent_id', '=', p.agentId))
    this.byId = sql.prepare((p: { id: number }) => hosts().where('id', '=', p.id))
    this.insertNew = sql.prepare((p: { agentId: string; hostname: string; now: number }) =>
      db.insertInto('host').values({ agent_id: p.agentId, hostname: p.hostname, created_at: p.now, last_modified: p.now }).returning('id'))
    this.dueForSilence = sql.prepare((p: { nowMs: number }) =>
      hosts().where('heartbeat', '=', 1).where('status', '=', 0)
        .where('heartbeat_deadline_ms', '<=', p.nowMs).orderBy('heartbeat_deadline_ms'))
    this.bumpEvents = sql.prepare((p: { id: number; count: number }) =>
      db.updateTable('host').set((eb) => ({ events_count: eb('events_count', '+', p.count) })).where('id', '=', p.id))
  }

  findByAgentId(agentId: string): HostRow | undefined {
    return this.byAgent.get({ agentId })
  }

  findById(id: number): HostRow | undefined {
    return this.byId.get({ id })
  }

  register(agentId: string, hostname: string, now: number): HostRow {
    const { id } = this.insertNew.get({ agentId, hostname, now })!
    return this.findById(id)!
  }

  /** Writes the given columns. The column set varies little, so compiled statements stay cached. */
  update(id: number, changes: HostChanges): void {
    this.sql.run(this.db.updateTable('host').set(changes).where('id', '=', id))
  }

  /** Active hosts whose heartbeat deadline has passed, oldest first. */
  silentSince(nowMs: number): HostRow[] {
    return this.dueForSilence.all({ nowMs })
  }

  addEvents(id: number, count: number): void {
    this.bumpEvents.run({ id, count })
  }
}
