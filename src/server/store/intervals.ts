// Down-time intervals: a failing service (service_name_id) or a silent host (service_name_id null).
// Uptime reports are computed from these, never from per-minute rows.
import type { QueryBuilder, SqlRunner } from './sql'

export class IntervalRepository {
  private readonly findOpen
  private readonly insertOpen
  private readonly closeOpen

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.findOpen = sql.prepare((p: { hostId: number; nameId: number | null }) =>
      db.selectFrom('state_interval').select(['id', 'start']).where('host_id', '=', p.hostId)
        .where('service_name_id', 'is', p.nameId).where('end', 'is', null))
    this.insertOpen = sql.prepare((p: { hostId: number; nameId: number | null; start: number }) =>
      db.insertInto('state_interval').values({ host_id: p.hostId, service_name_id: p.nameId, start: p.start, end: null }))
    this.closeOpen = sql.prepare((p: { id: number; end: number }) =>
      db.updateTable('state_interval').set({ end: p.end }).where('id', '=', p.id))
  }

  /** Opens a down interval at `start` unless one is open already. */
  open(hostId: number, nameId: number | null, start: number): void {
    if (!this.findOpen.get({ hostId, nameId })) this.insertOpen.run({ hostId, nameId, start })
  }

  /** Closes the open down interval, if any, at `end` (never before its start). */
  close(hostId: number, nameId: number | null, end: number): void {
    const open = this.findOpen.get({ hostId, nameId })
    if (open) this.closeOpen.run({ id: open.id, end: Math.max(end, open.start) })
  }
}
