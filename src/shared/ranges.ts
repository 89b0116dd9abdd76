// Report time ranges, shared by map/id/range, the uptime, analytics and event reports and the console's
// range pickers. Clients keep these ids and invert the map by name, so an id is assigned once and never
// renumbered (compat 6.7).

export const Range = {
  /** The current day, since local midnight: the uptime report's default "today". */
  Now: 0,
  LastHour: 1,
  Last6Hours: 2,
  Last12Hours: 3,
  Last24Hours: 4,
  Week: 5,
  Month: 6,
  ThreeMonths: 7,
  SixMonths: 8,
  Year: 9,
  TwoYears: 10,
  ThreeYears: 11,
  /** datefrom..dateto as given */
  Custom: 12
} as const
export type Range = (typeof Range)[keyof typeof Range]

export const rangeNames: Record<Range, string> = {
  0: 'now',
  1: 'last hour',
  2: 'last 6 hours',
  3: 'last 12 hours',
  4: 'last 24 hours',
  5: 'week',
  6: 'month',
  7: '3 months',
  8: '6 months',
  9: 'year',
  10: '2 years',
  11: '3 years',
  12: 'custom'
}

export const MINUTE = 60
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** [from, to) in unix seconds. */
export interface Span {
  from: number
  to: number
}

const hoursBack: Partial<Record<Range, number>> = {
  [Range.LastHour]: 1,
  [Range.Last6Hours]: 6,
  [Range.Last12Hours]: 12,
  [Range.Last24Hours]: 24,
  [Range.Week]: 7 * 24
}
const monthsBack: Partial<Record<Range, number>> = {
  [Range.Month]: 1,
  [Range.ThreeMonths]: 3,
  [Range.SixMonths]: 6,
  [Range.Year]: 12,
  [Range.TwoYears]: 24,
  [Range.ThreeYears]: 36
}

export function isRange(n: number): n is Range {
  return Number.isInteger(n) && n >= Range.Now && n <= Range.Custom
}

/** The span of a relative range (not Custom) ending at `now`, taken to its last whole minute. */
export function resolveRange(range: Exclude<Range, typeof Range.Custom>, now: number): Span {
  const to = Math.floor(now / MINUTE) * MINUTE
  const hours = hoursBack[range]
  if (hours !== undefined) return { from: to - hours * HOUR, to }
  const months = monthsBack[range]
  if (months !== undefined) return { from: monthsBefore(to, months), to }
  return { from: localMidnight(to), to }
}

function localMidnight(t: number): number {
  const d = new Date(t * 1000)
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() / 1000
}

function monthsBefore(t: number, months: number): number {
  const d = new Date(t * 1000)
  const target = new Date(d.getFullYear(), d.getMonth() - months, 1, d.getHours(), d.getMinutes(), d.getSeconds())
  const lastDay = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate()
  target.setDate(Math.min(d.getDate(), lastDay))
  return Math.floor(target.getTime() / 1000)
}
