// When resources run out (reports/forecasts/list, reports/forecasts/host): a filesystem's space or inodes,
// memory or swap reaching 100 % at its current trend. Keys start with 'forecasts'. A trend moves over hours,
// not with each report, so no live change refreshes them (a removed host's go: live/live-updates.ts); the
// dashboard's list, which the server's job stores every 10 minutes, is asked again every 5.
import { queryOptions } from '@tanstack/react-query'
import type { ForecastList, HostForecasts } from '../../shared/api/forecasts'
import { apiGet } from './client'

export type { ForecastResource, ResourceForecast } from '../../shared/api/forecasts'

const LIST_REFRESH_MS = 5 * 60_000

/** The resources that reach 100 % within `withinHours`, soonest first, at most `results` of them. */
export function forecastListQuery(withinHours: number, results: number) {
  return queryOptions({
    queryKey: ['forecasts', 'list', withinHours, results] as const,
    queryFn: () => apiGet<ForecastList>('reports/forecasts/list', { within: withinHours, results }),
    refetchInterval: LIST_REFRESH_MS
  })
}

/** Every resource of one host, computed when asked. */
export function hostForecastsQuery(hostId: number) {
  return queryOptions({
    queryKey: ['forecasts', 'host', hostId] as const,
    queryFn: () => apiGet<HostForecasts>('reports/forecasts/host', { hostid: hostId })
  })
}
