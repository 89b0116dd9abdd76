// The uptime screens' URL search: the report range, and the two ends of a custom one.
import { Range } from '../../../shared/ranges'
import type { UptimeSearch } from '../../api/uptime'
import { optionalInt } from './search-params'

export function parseUptimeSearch(raw: Record<string, unknown>): UptimeSearch {
  const range = optionalInt(raw.range, Range.Now, Range.Custom)
  // "Today" is kept when named: it is not every picker's default (charts open on the last 24 hours).
  if (range !== Range.Custom) return range === undefined ? {} : { range }
  const from = optionalInt(raw.from)
  const to = optionalInt(raw.to)
  // A custom range without both ends cannot be asked for; today is shown instead.
  return from !== undefined && to !== undefined ? { range, from, to } : {}
}

/** The uptime list's search: the range and the host name filter. */
export function parseUptimeListSearch(raw: Record<string, unknown>): UptimeSearch & { q?: string } {
  return { ...parseUptimeSearch(raw), ...(typeof raw.q === 'string' && raw.q.trim() !== '' ? { q: raw.q.slice(0, 100) } : {}) }
}

export const rangeLabels: Record<Range, string> = {
  [Range.Now]: 'Today', [Range.LastHour]: 'Last hour', [Range.Last6Hours]: 'Last 6 hours',
  [Range.Last12Hours]: 'Last 12 hours', [Range.Last24Hours]: 'Last 24 hours', [Range.Week]: 'Last 7 days',
  [Range.Month]: 'Last month', [Range.ThreeMonths]: 'Last 3 months', [Range.SixMonths]: 'Last 6 months',
  [Range.Year]: 'Last year', [Range.TwoYears]: 'Last 2 years', [Range.ThreeYears]: 'Last 3 years',
  [Range.Custom]: 'Custom range'
}
