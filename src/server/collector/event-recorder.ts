// Stores one event with the de-duplication and repeat rules, and keeps active errors and service
// down-time intervals in step. Used for agent events (ingest) and the server's heartbeat events.
import { EventClassId, EventState } from '../../shared/codes'
import { eventTimeUsec, isFailure, isRecovery, isRepeat } from '../domain/event-rules'
import type { Store } from '../store/store'
import type { MonitEvent } from './message'

export class EventRecorder {
  constructor(private readonly store: Store) {}

  /** Call inside a transaction. The stored event's id; undefined when it was not new. */
  record(hostId: number, e: MonitEvent): number | undefined {
    const { events, services, hosts, intervals } = this.store
    const usec = eventTimeUsec(e)
    const prev = events.lastState(hostId, e.service, e.id)
    if (isRepeat(prev, e)) return undefined
    // A late event (older than the state already known) is history only: it changes no current state.
    const late = prev !== undefined && usec < prev.collectedUsec
    const nameId = services.nameId(e.service)
    const stored = events.insert({
      host_id: hostId, service_name_id: nameId, service_name: e.service, service_type: e.serviceType,
      class: e.id, state: e.state, action: e.action, message: e.message,
      collected_usec: usec, date: e.collectedSec, active: isFailure(e.state) && !late ? 1 : 0
    })
    if (stored === undefined) return undefined
    hosts.addEvents(hostId, 1)
    services.addEvents(hostId, e.service, 1)

    if (late) return stored
    events.setLastState(hostId, e.service, e.id, e.state, usec)
    if (isRecovery(e.state)) events.resolveErrors(hostId, nameId, e.id, usec)
    // Host silence has intervals of its own (service_name_id null), kept by the heartbeat rules.
    if (e.state !== EventState.Changed && e.id !== EventClassId.Heartbeat) {
      if (events.failingClasses(hostId, e.service) > 0) intervals.open(hostId, nameId, e.collectedSec)
      else intervals.close(hostId, nameId, e.collectedSec)
    }
    return stored
  }
}
