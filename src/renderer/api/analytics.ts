// Statistics history of a service (reports/analytics/get, our endpoint; see the README): per series
// [time, avg, min, max] points at the finest resolution that covers the range.
import { queryOptions } from '@tanstack/react-query'
import type { AnalyticsReport } from '../../shared/api/analytics'
import { apiGet } from './client'

export type { AnalyticsReport, AnalyticsSeries } from '../../shared/api/analytics'

export function serviceAnalyticsQuery(hostId: number, serviceId: number, range: number) {
  return queryOptions({
    queryKey: ['analytics', hostId, serviceId, range] as const,
    queryFn: () => apiGet<AnalyticsReport>('reports/analytics/get', { hostid: hostId, serviceid: serviceId, range }),
    // History moves slowly at these resolutions; the live stream does not cover it, so refresh on a minute's age.
    staleTime: 60_000
  })
}
