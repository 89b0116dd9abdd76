// Statistics history of a service (reports/analytics/get, our endpoint; see the README): per series
// [time, avg, min, max] points at the finest resolution that covers the range.
import { queryOptions } from '@tanstack/react-query'
import { apiGet } from './client'

export interface AnalyticsSeries {
  serviceid: number
  service: string
  type: number
  typename: string
  descriptor: string
  unit: string
  /** [unix seconds, average, minimum, maximum] */
  points: [number, number, number, number][]
}

export interface AnalyticsAnswer {
  range: number
  /** The span covered, unix seconds */
  datefrom: number
  dateto: number
  /** Seconds per point */
  resolution: number
  series: AnalyticsSeries[]
}

export function serviceAnalyticsQuery(hostId: number, serviceId: number, range: number) {
  return queryOptions({
    queryKey: ['analytics', hostId, serviceId, range] as const,
    queryFn: () => apiGet<AnalyticsAnswer>('reports/analytics/get', { hostid: hostId, serviceid: serviceId, range }),
    // History moves slowly at these resolutions; the live stream does not cover it, so refresh on a minute's age.
    staleTime: 60_000
  })
}
