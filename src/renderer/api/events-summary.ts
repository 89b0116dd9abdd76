// The event reads of the monitoring screens: the last 24 hours in 10-minute samples for the dashboard
// (reports/events/summary) and a host's latest events for its detail (reports/events/list?hostid=).
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

export function hostEventsQuery(hostId: number, results: number) {
  return queryOptions({
    queryKey: ['events', 'host-latest', hostId, results] as const,
    queryFn: () => apiGet<HostEventsPage>('reports/events/list', { hostid: hostId, results })
  })
}
