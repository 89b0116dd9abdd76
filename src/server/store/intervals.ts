// Down-time intervals: a failing service (service_name_id) or a silent host (service_name_id null).
// Uptime reports are computed from these, never from per-minute rows.
import type { DownSpan } from '../domain/down-spans'
import { sql as rawSql, type ExpressionBuilder } from 'kysely'
import type { Schema } from './schema'
import { preparedForNullable, type QueryBuilder, type SqlRunner } from './sql'

/** The open down interval of the host (`nameId` null) or of a service. */
function openOne(eb: ExpressionBuilder<Schema, 'state_interval'>, hostId: number, nameId: number | null) {
  return eb.and([eb('host_id', '=', hostId), eb('service_name_id', nameId === null ? 'is' : '=', nameId), eb('end', 'is', null)])
}

export class IntervalRepository {
  private readonly openUnlessOpen
  private readonly closeOpen
  private readonly findSpanning
  private readonly cutSpanning
  private readonly deleteFrom
  private readonly deleteOne
  private readonly insertSpan

  constructor(db: QueryBuilder, sql: SqlRunner) {
    // One statement each, sent with the transaction's next (runLater): on PostgreSQL a read first would
    // be a round trip per event. The values are cast: PostgreSQL types a SELECT's bare parameters as text.
    this.openUnlessOpen = preparedForNullable(
      (p: { hostId: number; nameId: number | null; start: number }) => p.nameId === null,
      (forNull) =>
        sql.prepare((p: { hostId: number; nameId: number | null; start: number }) =>
          db
            .insertInto('state_interval')
            .columns(['host_id', 'service_name_id', 'start', 'end'])
            .expression(
              db
                .selectNoFrom([
                  rawSql<number>`cast(${p.hostId} as bigint)`.as('host_id'),
                  rawSql<number | null>`cast(${forNull ? null : p.nameId} as bigint)`.as('service_name_id'),
                  rawSql<number>`cast(${p.start} as bigint)`.as('start'),
                  rawSql<null>`null`.as('end')
                ])
                .where((eb) =>
                  eb.not(
                    eb.exists(
                      eb
                        .selectFrom('state_interval')
                        .select(rawSql`1`.as('one'))
                        .where((inner) => openOne(inner, p.hostId, forNull ? null : p.nameId))
                    )
                  )
                )
            )
        )
    )
    this.closeOpen = preparedForNullable(
      (p: { hostId: number; nameId: number | null; end: number }) => p.nameId === null,
      (forNull) =>
        sql.prepare((p: { hostId: number; nameId: number | null; end: number }) =>
          db
            .updateTable('state_interval')
            .set((eb) => ({ end: eb.case().when('start', '>', p.end).then(eb.ref('start')).else(p.end).end() }))
            .where((eb) => openOne(eb, p.hostId, forNull ? null : p.nameId))
        )
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
    this.openUnlessOpen.runLater({ hostId, nameId, start })
  }

  /** Closes the open down interval, if any, at `end` (never before its start). */
  close(hostId: number, nameId: number | null, end: number): void {
    this.closeOpen.runLater({ hostId, nameId, end })
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
