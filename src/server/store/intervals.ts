// Down-time intervals: a failing service (service_name_id) or a silent host (service_name_id null).
// Uptime reports are computed from these, never from per-minute rows.
import type { DownSpan } from '../domain/down-spans'
import { preparedForNullable, type QueryBuilder, type SqlRunner } from './sql'

export class IntervalRepository {
  private readonly findOpen
  private readonly insertOpen
  private readonly closeOpen
  private readonly findSpanning
  private readonly cutSpanning
  private readonly deleteFrom
  private readonly deleteOne
  private readonly insertSpan

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.findOpen = preparedForNullable(
      (p: { hostId: number; nameId: number | null }) => p.nameId === null,
      (forNull) =>
        sql.prepare((p: { hostId: number; nameId: number | null }) =>
          db
            .selectFrom('state_interval')
            .select(['id', 'start'])
            .where('host_id', '=', p.hostId)
            .where('service_name_id', forNull ? 'is' : '=', forNull ? null : p.nameId)
            .where('end', 'is', null)
        )
    )
    this.insertOpen = sql.prepare((p: { hostId: number; nameId: number | null; start: number }) =>
      db.insertInto('state_interval').values({ host_id: p.hostId, service_name_id: p.nameId, start: p.start, end: null })
    )
    this.closeOpen = sql.prepare((p: { id: number; end: number }) =>
      db.updateTable('state_interval').set({ end: p.end }).where('id', '=', p.id)
    )
    // The interval that began before second `from` and still ran at it.
    this.findSpanning = sql.prepare((p: { hostId: number; nameId: number; from: number }) =>
      db
        .selectFrom('state_interval')
        .select(['id', 'start'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('start', '<', p.from)
        .where((eb) => eb.or([eb('end', 'is', null), eb('end', '>=', p.from)]))
        .orderBy('start', 'desc')
        .limit(1)
    )
    this.cutSpanning = sql.prepare((p: { hostId: number; nameId: number; from: number }) =>
      db
        .updateTable('state_interval')
        .set({ end: p.from })
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('start', '<', p.from)
        .where((eb) => eb.or([eb('end', 'is', null), eb('end', '>', p.from)]))
    )
    this.deleteFrom = sql.prepare((p: { hostId: number; nameId: number; from: number }) =>
      db.deleteFrom('state_interval').where('host_id', '=', p.hostId).where('service_name_id', '=', p.nameId).where('start', '>=', p.from)
    )
    this.deleteOne = sql.prepare((p: { id: number }) => db.deleteFrom('state_interval').where('id', '=', p.id))
    this.insertSpan = sql.prepare((p: { hostId: number; nameId: number; start: number; end: number | null }) =>
      db.insertInto('state_interval').values({ host_id: p.hostId, service_name_id: p.nameId, start: p.start, end: p.end })
    )
  }

  /** Opens a down interval at `start` unless one is open already. */
  open(hostId: number, nameId: number | null, start: number): void {
    if (!this.findOpen.get({ hostId, nameId })) this.insertOpen.runLater({ hostId, nameId, start })
  }

  /** Closes the open down interval, if any, at `end` (never before its start). */
  close(hostId: number, nameId: number | null, end: number): void {
    const open = this.findOpen.get({ hostId, nameId })
    if (open) this.closeOpen.runLater({ id: open.id, end: Math.max(end, open.start) })
  }

  /**
   * Replaces a service's down intervals from second `from` on with `spans` (see downSpans): a late event
   * rewrites the part of the history it falls into. A span continuing from before keeps the start of the
   * interval it continues.
   */
  replaceFrom(hostId: number, nameId: number, from: number, spans: readonly DownSpan[]): void {
    const continued = spans[0]?.start === null ? this.findSpanning.get({ hostId, nameId, from }) : undefined
    if (continued) this.deleteOne.run({ id: continued.id })
    else this.cutSpanning.run({ hostId, nameId, from })
    this.deleteFrom.run({ hostId, nameId, from })
    for (const span of spans) this.insertSpan.run({ hostId, nameId, start: span.start ?? continued?.start ?? from, end: span.end })
  }
}
