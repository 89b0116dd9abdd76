// When a host's heartbeat is declared dead: `skew` poll cycles without a message (spec: default 3).
export const DEFAULT_SKEW = 3

/** Unix ms after which a host that reported at `lastMessageMs` is silent; null if it has no poll cycle. */
export function heartbeatDeadlineMs(lastMessageMs: number, poll: number, skew: number | null): number | null {
  if (poll <= 0) return null
  return lastMessageMs + (skew ?? DEFAULT_SKEW) * poll * 1000
}

/** Silence starts when the first expected message did not arrive: one poll after the last one. */
export function silenceStart(lastMessageSec: number, poll: number): number {
  return lastMessageSec + poll
}
