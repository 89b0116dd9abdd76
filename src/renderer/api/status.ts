// Host status reads (status/hosts/summary, get) and service actions (action/service); the hosts list
// reads status/hosts/overview (overview.ts). Query keys start with 'status', so the live stream
// refreshes them when hosts report.
import { queryOptions } from '@tanstack/react-query'
import type { ServiceAction } from '../../shared/api/hosts'
import type { HostGetAnswer, HostSummary } from '../../shared/api/status'
import { apiGet, apiPost } from './client'

export { serviceActions, type ServiceAction } from '../../shared/api/keys'
export type { HostCategory, HostDetail, HostSummary, ServiceEntry, SortDir, StatisticEntry } from '../../shared/api/status'

// ---- summary ----

export const hostSummaryQuery = queryOptions({
  queryKey: ['status', 'summary'] as const,
  queryFn: () => apiGet<HostSummary>('status/hosts/summary')
})

// ---- detail ----

/** As api/2 answers it: `serviceactions` is always there. */
export type HostDetailAnswer = HostGetAnswer & { records: { serviceactions: boolean } }

export function hostDetailQuery(hostId: number) {
  return queryOptions({
    queryKey: ['status', 'host', hostId] as const,
    queryFn: () => apiGet<HostDetailAnswer>('status/hosts/get', { id: hostId })
  })
}

// ---- service actions ----

/** Asks the server to have the agent run the action; the agent's own error comes back as the message. */
export function runServiceAction(hostId: number, serviceId: number, action: ServiceAction): Promise<unknown> {
  return apiPost('action/service', { hostid: hostId, service: String(serviceId), action })
}
