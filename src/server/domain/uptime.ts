// Uptime maths for reports/uptime/{list,get} (spec: Uptime reports, Limits; compat 6.5). Pure: the
// store hands in down intervals, this turns them into downtime and uptime at 1-minute resolution.
//
// Ranges, as [from, to) in unix seconds (resolveRange):
// * 0 today: from local midnight (server time zone) to now.
// * 1..4: the last 1, 6, 12 or 24 hours up to now; 5 week: the last 7 × 24 hours up to now.
// * 6..11: the last 1, 3, 6 months or 1, 2, 3 years up to now, in local calendar terms (same
//   day-of-month and time of day; a day the earlier month lacks becomes its last day: May 31 → Apr 30).
// * 12 custom: datefrom..dateto as given (from < to, to - from a whole number of minutes).
// "now" is taken to the last whole minute, so every relative range spans whole minutes too.
//
// What counts as down: the union of the given intervals (a service's failing periods, or a host's
// silence), an open interval (end null) lasting until now. Only the elapsed part of the range counts:
// a range reaching beyond now is measured up to now, and uptime is a percentage of that part
// (100 when none of it has elapsed).
//
// Unknown time (issue 12): spans in which nothing could be observed — the server itself was not running,
// or the host had not reported yet. They are neither up nor down: they leave the elapsed part (the
// denominator) and any down interval over them is not counted, so a server outage never reads as the
// agents' downtime.
//
// 1-minute resolution: the minute grid starts at the range's `from`. An interval covers every minute
// it touches: its start is floored and its end ceiled to the grid (a 10-second failure is a down
// minute; M/Monit is pessimistic likewise). Empty intervals (end ≤ start) count nothing, so an
// interval ending exactly at `from` or starting exactly at `to` adds nothing. Unknown spans snap outwards
// the same way: a minute the server was partly not running is unknown, and unknown wins over down.
import { MINUTE, type Span } from '../../shared/ranges'

// The range spans moved to shared/ranges.ts (the console resolves quick ranges too); their importers keep this path.
export { DAY, HOUR, isRange, MINUTE, resolveRange, type Span } from '../../shared/ranges'

export interface DownInterval {
  start: number
  /** null while still down */
  end: number | null
}

export interface Uptime {
  /** Whole minutes of downtime, in seconds. */
  downtime: number
  /** Percent of the known elapsed part of the range, floored to 2 decimals so any downtime shows below 100. */
  uptime: number
  /** Whole minutes of the elapsed part whose state is unknown, in seconds. */
  unknown: number
}

/** Why a custom range is invalid, naming the argument at fault; undefined when it is valid. */
export function customRangeProblem(from: number, to: number): { arg: 'datefrom' | 'dateto'; message: string } | undefined {
  if (from < 0) return { arg: 'datefrom', message: 'expected a unix timestamp of 0 or more' }
  if (to <= from) return { arg: 'dateto', message: 'must be later than datefrom' }
  if ((to - from) % MINUTE !== 0) return { arg: 'dateto', message: 'dateto - datefrom must be a whole number of minutes' }
  return undefined
}

/**
 * Downtime and uptime over `span`, measured up to `now`. `unknown` spans (the server not running, the
 * time before the host first reported) count neither as up nor as down.
 */
export function uptimeOf(span: Span, now: number, intervals: readonly DownInterval[], unknown: readonly DownInterval[] = []): Uptime {
  const end = elapsedEnd(span, now)
  const unknownMinutes = merged(clipped(span.from, end, now, unknown))
  const downMinutes = merged(clipped(span.from, end, now, intervals))
  const unknownLength = lengthOf(unknownMinutes)
  const known = end - span.from - unknownLength
  const downtime = lengthOf(downMinutes) - overlapLength(downMinutes, unknownMinutes)
  return { downtime, unknown: unknownLength, uptime: percentUp(known, downtime) }
}

/**
 * "Services up" (issue 28): the time-weighted share of a host's `count` monitored services that were up
 * over `span`, in percent like uptimeOf's: the services' known time less their downtime, over their known
 * time. A service is known when its host is (`unknown` as for uptimeOf), so each weighs the same.
 * `failures` holds the down intervals of those that failed, one list per service; the others were up.
 * null when the host monitors no service: there is nothing to be up.
 */
export function servicesUpOf(
  span: Span,
  now: number,
  count: number,
  failures: readonly (readonly DownInterval[])[],
  unknown: readonly DownInterval[] = []
): number | null {
  if (count === 0) return null
  const { unknown: unknownLength } = uptimeOf(span, now, [], unknown)
  const known = elapsedEnd(span, now) - span.from - unknownLength
  const downtime = failures.reduce((sum, f) => sum + uptimeOf(span, now, f, unknown).downtime, 0)
  return percentUp(count * known, Math.min(downtime, count * known))
}

/** Percent of `known` seconds not down, floored to 2 decimals so any downtime shows below 100; 100 when nothing is known. */
function percentUp(known: number, downtime: number): number {
  return known === 0 ? 100 : Math.floor((10000 * (known - downtime)) / known) / 100
}

/** The end of the range's elapsed part: `now` on the minute grid of `from`, within [from, to]. uptimeOf and
 *  servicesUpOf depend on `now` only through it. */
export function elapsedEnd(span: Span, now: number): number {
  return Math.max(span.from, Math.min(span.to, gridFloor(span.from, now)))
}

/** What nobody could observe of a host: the time before its first report, and the server's own downtime. */
export function unknownSpans(firstReport: number, serverDown: readonly DownInterval[]): DownInterval[] {
  return [{ start: 0, end: firstReport }, ...serverDown]
}

/** The intervals snapped outwards to the minute grid of `from` and cut to [from, end). */
function clipped(from: number, end: number, now: number, intervals: readonly DownInterval[]): [number, number][] {
  const out: [number, number][] = []
  for (const i of intervals) {
    const stop = Math.min(i.end ?? now, now)
    if (stop <= i.start) continue
    const s = Math.max(from, gridFloor(from, i.start))
    const e = Math.min(end, gridCeil(from, stop))
    if (e > s) out.push([s, e])
  }
  return out
}

/** The union of the spans as sorted, disjoint spans. */
function merged(spans: [number, number][]): [number, number][] {
  spans.sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [s, e] of spans) {
    const last = out.at(-1)
    if (last && s <= last[1]) last[1] = Math.max(last[1], e)
    else out.push([s, e])
  }
  return out
}

function lengthOf(spans: readonly [number, number][]): number {
  return spans.reduce((sum, [s, e]) => sum + e - s, 0)
}

/** How much two sorted, disjoint span lists overlap. */
function overlapLength(a: readonly [number, number][], b: readonly [number, number][]): number {
  let total = 0
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    total += Math.max(0, Math.min(a[i][1], b[j][1]) - Math.max(a[i][0], b[j][0]))
    if (a[i][1] < b[j][1]) i++
    else j++
  }
  return total
}

function gridFloor(origin: number, t: number): number {
  return origin + Math.floor((t - origin) / MINUTE) * MINUTE
}

function gridCeil(origin: number, t: number): number {
  return origin + Math.ceil((t - origin) / MINUTE) * MINUTE
}

/** "0m", "5m", "2h 5m", "3d 1h": days, hours and minutes, zero parts left out. Seconds are dropped. */
export function downtimeText(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / MINUTE)
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'd'],
    [Math.floor(minutes / 60) % 24, 'h'],
    [minutes % 60, 'm']
  ]
  const shown = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n}${unit}`)
  return shown.length > 0 ? shown.join(' ') : '0m'
}

/** The report's average: mean uptime (floored to 2 decimals) and mean downtime to the nearest minute. */
export function averageOf(items: readonly Pick<Uptime, 'downtime' | 'uptime'>[]): Pick<Uptime, 'downtime' | 'uptime'> {
  if (items.length === 0) return { downtime: 0, uptime: 100 }
  const mean = items.reduce((sum, u) => sum + u.downtime, 0) / items.length
  return { downtime: Math.round(mean / MINUTE) * MINUTE, uptime: meanPercent(items.map((u) => u.uptime))! }
}

/** The mean of percentages, floored to 2 decimals (rounded first at 6, so 99.99 + 99.99 stays 99.99); null for none. */
export function meanPercent(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length
  return Math.floor(Math.round(mean * 1e6) / 1e4) / 100
}
