// Statistics history of a service (reports/analytics/get, our endpoint; see docs/http-api.md): per series
// [time, avg, min, max] points at the finest resolution that covers the range.
import { queryOptions } from '@tanstack/react-query'
import type { AnalyticsReport } from '../../shared/api/analytics'
import { Range } from '../../shared/ranges'
import { apiGet } from './client'
import { rangeParams, type UptimeSearch } from './uptime'

export type { AnalyticsReport, AnalyticsSeries } from '../../shared/api/analytics'

/** Charts open on the last 24 hours when the URL names no range. */
export const DEFAULT_CHART_RANGE = Range.Last24Hours

export function serviceAnalyticsQuery(hostId: number, serviceId: number, range: UptimeSearch) {
  return queryOptions({
    queryKey: ['analytics', hostId, serviceId, range] as const,
    queryFn: () =>
      apiGet<AnalyticsReport>('reports/analytics/get', {
        hostid: hostId,
        serviceid: serviceId,
        ...rangeParams(range, DEFAULT_CHART_RANGE)
      }),
    // History moves slowly at these resolutions; the live stream does not cover it, so refresh on a minute's age.
    staleTime: 60_000
  })
}
