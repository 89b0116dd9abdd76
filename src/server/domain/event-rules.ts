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
