// Service down time from its events in agent time: down while any event class of it fails (docs/http-api.md,
// Uptime). Late events are recomputed from their second on, so this works on a slice of the history.
import { isFailure, isRecovery } from './event-rules'

/** One event of a service: its class, state and agent time in seconds. */
export interface ClassEvent {
  cls: number
  state: number
  sec: number
}

/** A down span; `start` null continues the span that was open before the slice. `end` null: still down. */
export interface DownSpan {
  start: number | null
  end: number | null
}

/**
 * The down spans of a service from a point on: `failingBefore` holds the classes failing just before it,
 * `events` the service's events from it on, in agent-time order ("changed" events change nothing).
 */
export function downSpans(failingBefore: ReadonlySet<number>, events: readonly ClassEvent[]): DownSpan[] {
  const failing = new Set(failingBefore)
  const spans: DownSpan[] = []
  let open: DownSpan | undefined = failing.size > 0 ? { start: null, end: null } : undefined
  for (const e of events) {
    if (isFailure(e.state)) {
      failing.add(e.cls)
      open ??= { start: e.sec, end: null }
    } else if (isRecovery(e.state)) {
      failing.delete(e.cls)
      if (open && failing.size === 0) {
        spans.push({ ...open, end: e.sec })
        open = undefined
      }
    }
  }
  if (open) spans.push(open)
  return spans
}
