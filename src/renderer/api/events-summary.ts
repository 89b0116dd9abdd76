// The event reads of the monitoring screens: the last 24 hours in 10-minute samples for the dashboard
// (reports/events/summary), a host's or one of its services' latest events for their pages
// (reports/events/list?hostid=&servicenameid=), and since when a service fails.
// Keys start with 'events', so new events refresh them live.
import { queryOptions } from '@tanstack/react-query'
import type { EventSummary } from '../../shared/api/events'
import { apiGet } from './client'

export type { EventSummary as EventsSummary } from '../../shared/api/events'
export type SummaryLabel = EventSummary['events'][number]['label']

export const eventsSummaryQuery = queryOptions({
  queryKey: ['events', 'summary'] as const,
  queryFn: () => apiGet<EventSummary>('reports/events/summary')
})

export interface HostEventEntry {
  id: number
  date: number
  servicename: string
  event: string
  /** 0 success, 1 error, 2 change */
  eventtype: number
  active: number
}

export interface HostEventsPage {
  records: HostEventEntry[]
  totalRecords: number
}

/** The latest events of a host, or of one of its services (by its name id). */
export function hostEventsQuery(hostId: number, results: number, serviceNameId?: number) {
  return queryOptions({
    queryKey: ['events', 'host-latest', hostId, results, serviceNameId] as const,
    queryFn: () => apiGet<HostEventsPage>('reports/events/list', { hostid: hostId, servicenameid: serviceNameId, results })
  })
}

/** A service's oldest error that is still active: when it started failing (none: it is not failing). */
export function failingSinceQuery(hostId: number, serviceNameId: number) {
  return queryOptions({
    queryKey: ['events', 'failing-since', hostId, serviceNameId] as const,
    queryFn: async () => {
      const page = await apiGet<HostEventsPage>('reports/events/list', {
        hostid: hostId,
        servicenameid: serviceNameId,
        active: 1,
        sort: 'date',
        dir: 'asc',
        results: 1
      })
      return page.records[0] ?? null
    }
  })
}
