// Events as the collector and the watchdog write them. De-duplication is the unique key
// (host, service name, class, state, agent time); `event_state` holds the last state per class.
import type { Insertable } from 'kysely'
import type { StoredEventState } from '../domain/event-rules'
import type { EventTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type NewEvent = Omit<Insertable<EventTable>, 'id' | 'dismissed' | 'has_note'>

export class EventRepository {
  private readonly insertIfNew
  private readonly findState
  private readonly saveState
  private readonly resolveActive
  private readonly countFailing

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.insertIfNew = sql.prepare((p: Required<NewEvent>) =>
      db.insertInto('event').values({
        host_id: p.host_id, service_name_id: p.service_name_id, service_name: p.service_name, service_type: p.service_type,
        class: p.class, state: p.state, action: p.action, message: p.message,
        collected_usec: p.collected_usec, date: p.date, active: p.active
      }).onConflict((oc) => oc.doNothing()))
    this.findState = sql.prepare((p: { hostId: number; service: string; cls: number }) =>
      db.selectFrom('event_state').select(['state', 'collected_usec as collectedUsec'])
        .where('host_id', '=', p.hostId).where('service_name', '=', p.service).where('class', '=', p.cls))
    this.saveState = sql.prepare((p: { hostId: number; service: string; cls: number; state: number; usec: number }) =>
      db.insertInto('event_state')
        .values({ host_id: p.hostId, service_name: p.service, class: p.cls, state: p.state, collected_usec: p.usec })
        .onConflict((oc) => oc.columns(['host_id', 'service_name', 'class']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'), collected_usec: eb.ref('excluded.collected_usec')
        }))))
    this.resolveActive = sql.prepare((p: { hostId: number; nameId: number; cls: number; usec: number }) =>
      db.updateTable('event').set({ active: 0 })
        .where('host_id', '=', p.hostId).where('service_name_id', '=', p.nameId).where('class', '=', p.cls)
        .where('active', '=', 1).where('collected_usec', '<=', p.usec))
    this.countFailing = sql.prepare((p: { hostId: number; service: string }) =>
      db.selectFrom('event_state').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('host_id', '=', p.hostId).where('service_name', '=', p.service).where('state', '=', 1))
  }

  /** Stores the event unless an identical one is stored already; its id when stored. */
  insert(e: NewEvent): number | undefined {
    const result = this.insertIfNew.run({ active: 0, ...e } as Required<NewEvent>)
    return result.changes > 0 ? Number(result.lastInsertRowid) : undefined
  }

  lastState(hostId: number, service: string, cls: number): StoredEventState | undefined {
    return this.findState.get({ hostId, service, cls })
  }

  setLastState(hostId: number, service: string, cls: number, state: number, usec: number): void {
    this.saveState.run({ hostId, service, cls, state, usec })
  }

  /** A recovery ends the active errors of that class which happened before it. */
  resolveErrors(hostId: number, nameId: number, cls: number, usec: number): void {
    this.resolveActive.run({ hostId, nameId, cls, usec })
  }

  /** How many event classes of the service are failing now. */
  failingClasses(hostId: number, service: string): number {
    return this.countFailing.get({ hostId, service })?.n ?? 0
  }
}
