// Which incoming Monit events are new facts (agent protocol §3.6, §3.7).
import { EventClassId, EventState } from '../../shared/codes'
import type { MonitEvent } from '../collector/message'

export interface StoredEventState { state: number; collectedUsec: number }

export function eventTimeUsec(e: { collectedSec: number; collectedUsec: number }): number {
  return e.collectedSec * 1_000_000 + e.collectedUsec
}

/**
 * After a reload or restart the agent re-sends the failure of a service that is still failing, with a
 * new timestamp. Such an event repeats the state already stored for that service and class; it is not
 * a new transition. "Changed" events are each a fact of their own and never repeats.
 */
export function isRepeat(prev: StoredEventState | undefined, e: MonitEvent): boolean {
  if (!prev || e.state === EventState.Changed) return false
  return prev.state === e.state && eventTimeUsec(e) >= prev.collectedUsec
}

/** "Monit … stopped" (Instance, action stop) of the current incarnation: an orderly shutdown. */
export function isAgentStop(e: MonitEvent, incarnation: number): boolean {
  return e.id === EventClassId.Instance && e.action === 3 && e.collectedSec >= incarnation
}

/** A failed event counts as an active error until a success of the same class. */
export function isFailure(state: number): boolean {
  return state === EventState.Failed
}

export function isRecovery(state: number): boolean {
  return state === EventState.Succeeded || state === EventState.ChangedNot
}
