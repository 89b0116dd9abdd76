// The server's own downtime (issue 12): the gaps between its runs. A run ends at its clean stop, or —
// after a crash or kill -9, when no stop was written — at its last "alive" stamp, the last moment the
// server is known to have run. Pure: the store hands in the runs.
import type { Span } from './uptime'

/** One start of the server, in unix seconds. */
export interface ServerRun {
  started_at: number
  alive_at: number
  /** null: the run is current, or it ended without a clean stop. */
  stopped_at: number | null
}

/** A span the server was not running, in unix seconds: [start, end). */
export interface Downtime {
  start: number
  end: number
}

/** How often a running server stamps that it is alive: the precision of a crash's start. */
export const ALIVE_STAMP_MS = 10_000

/** The gaps between consecutive runs (sorted by start): when the server was not running. */
export function serverDowntimes(runs: readonly ServerRun[]): Downtime[] {
  const gaps: Downtime[] = []
  for (let i = 1; i < runs.length; i++) {
    const before = runs[i - 1]
    const end = before.stopped_at ?? before.alive_at
    if (runs[i].started_at > end) gaps.push({ start: end, end: runs[i].started_at })
  }
  return gaps
}

/** The downtimes cut to the part of `span` elapsed by `now` (as the uptime report lists them). */
export function downtimesWithin(downtimes: readonly Downtime[], span: Span, now: number): Downtime[] {
  const end = Math.min(span.to, now)
  return downtimes.map((d) => ({ start: Math.max(d.start, span.from), end: Math.min(d.end, end) })).filter((d) => d.end > d.start)
}
