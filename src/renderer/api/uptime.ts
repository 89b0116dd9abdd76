// The uptime reports: hosts (reports/uptime/list) and one host's services (reports/uptime/get), over a
// report range. Keys start with 'uptime', which the live stream refreshes on heartbeat changes.
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { UptimeReport } from '../../shared/api/uptime'
import { Range } from '../../shared/ranges'
import { apiGet, type ApiParams } from './client'

export type { ServerDowntime, UptimeItem, UptimeReport } from '../../shared/api/uptime'

/** The range in the URL: a range id, and for the custom range its two ends in unix seconds. */
export interface UptimeSearch {
  range?: number
  from?: number
  to?: number
}

/** The report arguments of a range in the URL; `fallback` when it names none. */
export function rangeParams(search: UptimeSearch, fallback: Range = Range.Now): ApiParams {
  const range = search.range ?? fallback
  return range === Range.Custom ? { range, datefrom: search.from, dateto: search.to } : { range }
}

export const uptimeHostsQuery = (search: UptimeSearch) =>
  queryOptions({
    queryKey: ['uptime', 'hosts', search],
    queryFn: () => apiGet<UptimeReport>('reports/uptime/list', rangeParams(search)),
    placeholderData: keepPreviousData
  })

export const uptimeServicesQuery = (hostId: number, search: UptimeSearch) =>
  queryOptions({
    queryKey: ['uptime', 'host', hostId, search],
    queryFn: () => apiGet<UptimeReport>('reports/uptime/get', { id: hostId, ...rangeParams(search) }),
    // A new range keeps the old figures on screen until the new ones arrive; another host does not.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === hostId ? previous : undefined)
  })
