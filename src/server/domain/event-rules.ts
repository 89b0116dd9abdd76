// Which incoming Monit events are new facts, and what they change (agent protocol §3.6, §3.7).
import { EventClassId, EventState } from '../../shared/codes'

/** A stored event of the same service and class: its state and agent time. */
export interface StoredEventState {
  state: number
  collectedUsec: number
}

export function eventTimeUsec(e: { collectedSec: number; collectedUsec: number }): number {
  return e.collectedSec * 1_000_000 + e.collectedUsec
}

/** Whether an event states again what the event before it (agent time) stated; "changed" never does. */
export function repeatsPrior(prior: StoredEventState | undefined, e: StoredEventState): prior is StoredEventState {
  return prior !== undefined && e.state !== EventState.Changed && prior.state === e.state
}

/**
 * After a reload or restart the agent re-sends the failure of a service that is still failing, with a
 * new timestamp (§3.3, §3.6): the first event of that service and class in the new incarnation, stating
 * again what the event before the incarnation began stated. `incarnationStartUsec` is the start of the
 * newest incarnation known to begin at or before the event. Within one incarnation Monit posts changes
 * only, so any other event is a fact, even one that states what its predecessor did (the change between
 * them was lost or is still queued).
 */
export function isResend(prior: StoredEventState | undefined, e: StoredEventState, incarnationStartUsec: number | undefined): boolean {
  return (
    repeatsPrior(prior, e) &&
    incarnationStartUsec !== undefined &&
    prior.collectedUsec < incarnationStartUsec &&
    incarnationStartUsec <= e.collectedUsec
  )
}

/** "Monit … stopped" (Instance, action stop) of the current incarnation: an orderly shutdown. */
export function isAgentStop(e: { id: number; action: number; collectedSec: number }, incarnation: number): boolean {
  return e.id === EventClassId.Instance && e.action === 3 && e.collectedSec >= incarnation
}

/** A failed event counts as an active error until a recovery of the same class follows it in agent time. */
export function isFailure(state: number): boolean {
  return state === EventState.Failed
}

export function isRecovery(state: number): boolean {
  return state === EventState.Succeeded || state === EventState.ChangedNot
}

/** The newest event of one service and event class (agent time). */
export interface ServiceEventState extends StoredEventState {
  service: string
  class: number
}

/** Classes about the agent itself rather than a check of the service: Monit's start and stop, the server's heartbeat. */
const agentClasses = EventClassId.Instance | EventClassId.Heartbeat

/**
 * Per service, the event classes whose newest event failed, counting `incoming` (the message's own
 * event, stored after its snapshot is applied) when it is newer than the stored one of its class.
 */
export function activeErrorsByService(
  stored: readonly ServiceEventState[],
  incoming?: { service: string; id: number; state: number; collectedSec: number; collectedUsec: number }
): Map<string, number> {
  const newest = new Map<string, ServiceEventState>()
  for (const s of stored) newest.set(`${s.class} ${s.service}`, s)
  if (incoming) {
    const key = `${incoming.id} ${incoming.service}`
    const usec = eventTimeUsec(incoming)
    if (usec > (newest.get(key)?.collectedUsec ?? -1)) {
      newest.set(key, { service: incoming.service, class: incoming.id, state: incoming.state, collectedUsec: usec })
    }
  }
  const errors = new Map<string, number>()
  for (const s of newest.values()) {
    if ((s.class & agentClasses) !== 0 || !isFailure(s.state)) continue
    errors.set(s.service, (errors.get(s.service) ?? 0) | s.class)
  }
  return errors
}
