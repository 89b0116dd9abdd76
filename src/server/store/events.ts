// Events as the collector and the watchdog write them. De-duplication is the unique key
// (host, service name, class, state, agent time); `event_state` holds the newest state per class (agent
// time). Queued events arrive out of order: the reads "around" an agent time use event_service_time.
import type { Insertable } from 'kysely'
import { EventClassId, EventState } from '../../shared/codes'
import type { ClassEvent } from '../domain/down-spans'
import type { ServiceEventState, StoredEventState } from '../domain/event-rules'
import type { EventTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type NewEvent = Omit<Insertable<EventTable>, 'id' | 'dismissed' | 'has_note'>

export class EventRepository {
  private readonly insertIfNew
  private readonly saveState
  private readonly resolveActive
  private readonly findPrior
  private readonly findNext
  private readonly deleteEvent
  private readonly findRecoveryAfter
  private readonly findInstanceEvent
  private readonly listFrom
  private readonly listClasses
  private readonly listHostStates
  private readonly deleteOld

  constructor(db: QueryBuilder, sql: SqlRunner) {
    // Oldest first (event_date); an error still active stays whatever its age: it is the service's current state.
    this.deleteOld = sql.prepare((p: { before: number; limit: number }) =>
      db
        .deleteFrom('event')
        .where('id', 'in', (eb) =>
          eb.selectFrom('event').select('id').where('date', '<', p.before).where('active', '=', 0).orderBy('date').limit(p.limit)
        )
    )
    this.insertIfNew = sql.prepare((p: Required<NewEvent>) =>
      db
        .insertInto('event')
        .values({
          host_id: p.host_id,
          service_name_id: p.service_name_id,
          service_name: p.service_name,
          service_type: p.service_type,
          class: p.class,
          state: p.state,
          action: p.action,
          message: p.message,
          collected_usec: p.collected_usec,
          date: p.date,
          active: p.active
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
    )
    this.saveState = sql.prepare((p: { hostId: number; service: string; cls: number; state: number; usec: number }) =>
      db
        .insertInto('event_state')
        .values({ host_id: p.hostId, service_name: p.service, class: p.cls, state: p.state, collected_usec: p.usec })
        .onConflict((oc) =>
          oc.columns(['host_id', 'service_name', 'class']).doUpdateSet((eb) => ({
            state: eb.ref('excluded.state'),
            collected_usec: eb.ref('excluded.collected_usec')
          }))
        )
    )
    this.resolveActive = sql.prepare((p: { hostId: number; nameId: number; cls: number; usec: number }) =>
      db
        .updateTable('event')
        .set({ active: 0 })
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('class', '=', p.cls)
        .where('active', '=', 1)
        .where('collected_usec', '<=', p.usec)
    )
    this.findPrior = sql.prepare((p: { hostId: number; nameId: number; cls: number; usec: number }) =>
      db
        .selectFrom('event')
        .select(['state', 'collected_usec as collectedUsec'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('collected_usec', '<', p.usec)
        .where('class', '=', p.cls)
        .orderBy('collected_usec', 'desc')
        .limit(1)
    )
    this.findNext = sql.prepare((p: { hostId: number; nameId: number; cls: number; usec: number }) =>
      db
        .selectFrom('event')
        .select(['id', 'state', 'collected_usec as collectedUsec'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('collected_usec', '>', p.usec)
        .where('class', '=', p.cls)
        .orderBy('collected_usec')
        .limit(1)
    )
    this.deleteEvent = sql.prepare((p: { id: number }) => db.deleteFrom('event').where('id', '=', p.id))
    this.findRecoveryAfter = sql.prepare((p: { hostId: number; nameId: number; cls: number; usec: number }) =>
      db
        .selectFrom('event')
        .select('id')
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('collected_usec', '>', p.usec)
        .where('class', '=', p.cls)
        .where('state', 'in', [EventState.Succeeded, EventState.ChangedNot])
        .limit(1)
    )
    this.findInstanceEvent = sql.prepare((p: { hostId: number; nameId: number; usec: number }) =>
      db
        .selectFrom('event')
        .select('collected_usec as collectedUsec')
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('collected_usec', '<=', p.usec)
        .where('class', '=', EventClassId.Instance)
        .orderBy('collected_usec', 'desc')
        .limit(1)
    )
    this.listFrom = sql.prepare((p: { hostId: number; nameId: number; usec: number }) =>
      db
        .selectFrom('event')
        .select(['class as cls', 'state', 'date as sec'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.nameId)
        .where('collected_usec', '>=', p.usec)
        .orderBy('collected_usec')
    )
    this.listClasses = sql.prepare((p: { hostId: number; service: string }) =>
      db
        .selectFrom('event_state')
        .select(['class', 'state', 'collected_usec as collectedUsec'])
        .where('host_id', '=', p.hostId)
        .where('service_name', '=', p.service)
    )
    this.listHostStates = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('event_state')
        .select(['service_name as service', 'class', 'state', 'collected_usec as collectedUsec'])
        .where('host_id', '=', p.hostId)
    )
  }

  /** Stores the event unless an identical one is stored already; its id when stored. */
  insert(e: NewEvent): number | undefined {
    return this.insertIfNew.get({ active: 0, ...e } as Required<NewEvent>)?.id
  }

  setLastState(hostId: number, service: string, cls: number, state: number, usec: number): void {
    this.saveState.runLater({ hostId, service, cls, state, usec })
  }

  /** A recovery ends the active errors of that class which happened before it. */
  resolveErrors(hostId: number, nameId: number, cls: number, usec: number): void {
    this.resolveActive.runLater({ hostId, nameId, cls, usec })
  }

  /** The newest event of the service and class before `usec` (agent time). */
  priorEvent(hostId: number, nameId: number, cls: number, usec: number): StoredEventState | undefined {
    return this.findPrior.get({ hostId, nameId, cls, usec })
  }

  /** The oldest event of the service and class after `usec` (agent time). */
  nextEvent(hostId: number, nameId: number, cls: number, usec: number): (StoredEventState & { id: number }) | undefined {
    return this.findNext.get({ hostId, nameId, cls, usec })
  }

  remove(id: number): void {
    this.deleteEvent.run({ id })
  }

  /** Whether a recovery of the service and class follows `usec` (agent time). */
  recoveredAfter(hostId: number, nameId: number, cls: number, usec: number): boolean {
    return this.findRecoveryAfter.get({ hostId, nameId, cls, usec }) !== undefined
  }

  /** Agent time of the host's newest start, reload or stop event at or before `usec`; `monitNameId` names service `Monit`. */
  lastInstanceEvent(hostId: number, monitNameId: number, usec: number): number | undefined {
    return this.findInstanceEvent.get({ hostId, nameId: monitNameId, usec })?.collectedUsec
  }

  /** The service's events from `usec` on, in agent-time order. */
  eventsFrom(hostId: number, nameId: number, usec: number): ClassEvent[] {
    return this.listFrom.all({ hostId, nameId, usec })
  }

  /** Deletes up to `limit` of the oldest events dated before `before` (seconds), but no active error; returns how many. */
  pruneBefore(before: number, limit: number): number {
    return this.deleteOld.run({ before, limit }).changes
  }

  /** The event classes the service has events of, with the state and agent time of the newest of each. */
  classesOf(hostId: number, service: string): { class: number; state: number; collectedUsec: number }[] {
    return this.listClasses.all({ hostId, service })
  }

  /** The newest state of every service and event class of the host (a few rows per service). */
  statesOfHost(hostId: number): ServiceEventState[] {
    return this.listHostStates.all({ hostId })
  }
}
