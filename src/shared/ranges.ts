// Report time ranges, shared by map/id/range and the uptime and analytics reports. Clients keep these
// ids and invert the map by name, so an id is assigned once and never renumbered (compat 6.7).

export const Range = {
  /** The current day, since local midnight: the uptime report's default "today". */
  Now: 0,
  LastHour: 1, Last6Hours: 2, Last12Hours: 3, Last24Hours: 4,
  Week: 5, Month: 6, ThreeMonths: 7, SixMonths: 8, Year: 9, TwoYears: 10, ThreeYears: 11,
  /** datefrom..dateto as given */
  Custom: 12
} as const
export type Range = (typeof Range)[keyof typeof Range]

export const rangeNames: Record<Range, string> = {
  0: 'now', 1: 'last hour', 2: 'last 6 hours', 3: 'last 12 hours', 4: 'last 24 hours',
  5: 'week', 6: 'month', 7: '3 months', 8: '6 months', 9: 'year', 10: '2 years', 11: '3 years', 12: 'custom'
}
