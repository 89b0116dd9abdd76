// Stores one event as a fact, and keeps current states, active errors and service down-time intervals
// in step with the agent-time order of events, whatever order they arrive in (queue replays are not in
// time order and interleave with live events). Used for agent events (ingest) and the server's
// heartbeat events. A new fact that is the newest of its service and class is also matched against the
// alert rules, its outbox rows written in the same transaction (issue 13).
import { EventClassId, EventState } from '../../shared/codes'
import { downSpans } from '../domain/down-spans'
import { eventTimeUsec, isFailure, isRecovery, isResend, repeatsPrior, type StoredEventState } from '../domain/event-rules'
import type { Store } from '../store/store'
import { AlertEnqueuer } from './alert-enqueuer'
import type { MonitEvent } from '../monit/message'

type ClassState = ReturnType<Store['events']['classesOf']>[number]

export class EventRecorder {
  private readonly alerts: AlertEnqueuer

  constructor(private readonly store: Store) {
    this.alerts = new AlertEnqueuer(store)
  }

  /**
   * Call inside a transaction. `incarnation` is the one of the agent's message (none for the server's
   * own events). The stored event's id; undefined when it was stored already or is a re-send.
   */
  record(hostId: number, e: MonitEvent, incarnation?: number): number | undefined {
    const { events, services, hosts } = this.store
    const usec = eventTimeUsec(e)
    const nameId = services.nameId(e.service)
    // Every class's state at once: the down-time below needs them all, and this event's class is one.
    const classes = events.classesOf(hostId, e.service)
    const newest = classes.find((c) => c.class === e.id)
    // Older than the newest known of its service and class: history that changes no current state.
    const late = newest !== undefined && usec <= newest.collectedUsec
    const prior = late ? events.priorEvent(hostId, nameId, e.id, usec) : newest
    const incoming = { state: e.state, collectedUsec: usec }
    // repeatsPrior first: it is cheap, and finding where the incarnation began reads the store.
    if (
      incarnation !== undefined &&
      repeatsPrior(prior, incoming) &&
      isResend(prior, incoming, this.incarnationStart(hostId, incarnation, usec))
    ) {
      return undefined
    }
    const active = isFailure(e.state) && !(late && events.recoveredAfter(hostId, nameId, e.id, usec))
    const stored = events.insert({
      host_id: hostId,
      service_name_id: nameId,
      service_name: e.service,
      service_type: e.serviceType,
      class: e.id,
      state: e.state,
      action: e.action,
      message: e.message,
      collected_usec: usec,
      date: e.collectedSec,
      active: active ? 1 : 0
    })
    if (stored === undefined) return undefined
    hosts.addEvents(hostId, 1)
    services.addEvents(hostId, e.service, 1)

    if (!late) events.setLastState(hostId, e.service, e.id, e.state, usec)
    const removedResend =
      late && incarnation !== undefined && this.removeResendOf(hostId, nameId, e.service, incoming, e.id, incarnation, newest)
    // Ends the errors it follows in agent time, never a failure newer than itself.
    if (isRecovery(e.state)) events.resolveErrors(hostId, nameId, e.id, usec)
    // Host silence has intervals of its own (service_name_id null), kept by the heartbeat rules.
    // Nor is a forecast (a resource running out) down time: the service still works.
    if (e.state !== EventState.Changed && e.id !== EventClassId.Heartbeat && e.id !== EventClassId.Forecast) {
      // As stored now: this event's state is its class's newest unless late; a removed re-send moved one.
      const statesNow = removedResend
        ? events.classesOf(hostId, e.service)
        : late
          ? classes
          : [...classes.filter((c) => c.class !== e.id), { class: e.id, state: e.state, collectedUsec: usec }]
      this.followDownTime(hostId, nameId, e, usec, statesNow, removedResend)
    }
    // A late event is history: an old failure replayed after its recovery must page no one.
    if (!late) this.alerts.enqueue(hostId, stored, nameId, e, newest?.state)
    return stored
  }

  /** Runs `fn`, the events of one transaction's messages, with the alert rules' freshness checked once (AlertEnqueuer.withinBatch). */
  inBatch<T>(fn: () => T): T {
    return this.alerts.withinBatch(fn)
  }

  /** The batch changed what alert rules read (a host's groups). */
  alertConfigMayHaveChanged(): void {
    this.alerts.configMayHaveChanged()
  }

  /**
   * A late event may be the original of a re-send stored before it (the queue is not replayed in time
   * order): the event after it of its class, the first of a later incarnation, stating the same. That
   * copy goes, so that the order of arrival does not decide what is stored.
   */
  private removeResendOf(
    hostId: number,
    nameId: number,
    service: string,
    e: StoredEventState,
    cls: number,
    incarnation: number,
    newest: StoredEventState
  ): boolean {
    const { events, services, hosts } = this.store
    const next = events.nextEvent(hostId, nameId, cls, e.collectedUsec)
    if (!next || !isResend(e, next, this.incarnationStart(hostId, incarnation, next.collectedUsec))) return false
    events.remove(next.id)
    hosts.addEvents(hostId, -1)
    services.addEvents(hostId, service, -1)
    if (next.collectedUsec === newest.collectedUsec) events.setLastState(hostId, service, cls, e.state, e.collectedUsec)
    return true
  }

  /** Start (agent time) of the newest incarnation known to begin at or before `usec`: the message's, or a stored start, reload or stop. */
  private incarnationStart(hostId: number, incarnation: number, usec: number): number | undefined {
    const current = incarnation * 1_000_000
    const stored = this.store.events.lastInstanceEvent(hostId, this.store.services.nameId('Monit'), usec)
    if (current > usec) return stored
    return stored === undefined ? current : Math.max(current, stored)
  }

  /**
   * Opens or closes the service's down interval. An event older than the service's newest, or one whose
   * re-send was removed, rewrites its intervals from its second on.
   */
  private followDownTime(
    hostId: number,
    nameId: number,
    e: MonitEvent,
    usec: number,
    states: readonly ClassState[],
    historyChanged: boolean
  ): void {
    const { events, intervals } = this.store
    const classes = states.filter((c) => c.class !== EventClassId.Heartbeat)
    if (!historyChanged && classes.every((c) => c.collectedUsec <= usec)) {
      if (states.some((c) => c.state === EventState.Failed)) intervals.open(hostId, nameId, e.collectedSec)
      else intervals.close(hostId, nameId, e.collectedSec)
      return
    }
    const from = e.collectedSec * 1_000_000
    const failingBefore = new Set<number>()
    for (const c of classes) {
      if (isFailure(events.priorEvent(hostId, nameId, c.class, from)?.state ?? EventState.Succeeded)) failingBefore.add(c.class)
    }
    intervals.replaceFrom(hostId, nameId, e.collectedSec, downSpans(failingBefore, events.eventsFrom(hostId, nameId, from)))
  }
}
