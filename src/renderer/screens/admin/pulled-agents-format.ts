// How a pulled agent's row reads: its pinned certificate shortened, and the state of its last poll.
import type { PulledAgent } from '../../api/pulled-agents'

/** "AB:CD:EF:01…89:AB" for a SHA-256 fingerprint: enough to tell two apart at a glance (the whole on hover). */
export function shortFingerprint(sha256: string): string {
  const pairs = sha256.split(':')
  return pairs.length > 6 ? `${pairs.slice(0, 4).join(':')}…${pairs.slice(-2).join(':')}` : sha256
}

export const isHttps = (agent: Pick<PulledAgent, 'url'>) => /^https:/i.test(agent.url)

/** What the last poll found: answered, failed (its error), or none yet. */
export type PollState = { kind: 'ok' } | { kind: 'failing'; error: string } | { kind: 'waiting' }

export function pollState(agent: Pick<PulledAgent, 'error' | 'polledat'>): PollState {
  if (agent.error !== null) return { kind: 'failing', error: agent.error }
  return agent.polledat === null ? { kind: 'waiting' } : { kind: 'ok' }
}
