// Host status reads (status/hosts/summary, list, get) and service actions (action/service). Query keys
// start with 'status', so the live stream refreshes them when hosts report.
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { HostSortKey, HostStatusEntry, ServiceEntry, SortDir } from '../../shared/api/status'
import { apiGet, apiPost } from './client'

export { hostSortKeys } from '../../shared/api/status'
export type { HostSortKey, HostStatusEntry, ServiceEntry, SortDir, StatisticEntry } from '../../shared/api/status'

// ---- summary ----

/** status/hosts/summary's categories, in the server's order. */
export type HostCategory = 'failed' | 'services failed' | 'some services failed/unmonitored' | 'ok' | 'inactive' | 'ignored'

export interface HostSummary {
  status: { label: HostCategory; data: number }[]
}

export const hostSummaryQuery = queryOptions({
  queryKey: ['status', 'summary'] as const,
  queryFn: () => apiGet<HostSummary>('status/hosts/summary')
})

// ---- list ----

export interface HostPage {
  records: HostStatusEntry[]
  totalRecords: number
  startIndex: number
  pageSize: number
}

export interface HostFilter {
  led?: readonly number[]
  hostgroupid?: number
  hostpattern?: string
  sort?: HostSortKey
  dir?: SortDir
}

/** One page of the host list; pages are separate queries so a scroll to row 9,000 loads only that page. */
export function hostPageQuery(filter: HostFilter, pageIndex: number, pageSize: number) {
  return queryOptions({
    queryKey: ['status', 'list', filter, pageIndex, pageSize] as const,
    queryFn: () => apiGet<HostPage>('status/hosts/list', {
      led: filter.led, hostgroupid: filter.hostgroupid, hostpattern: filter.hostpattern, sort: filter.sort, dir: filter.dir,
      results: pageSize, startindex: pageIndex * pageSize
    }),
    // While a new filter loads, the old rows stay instead of a blank list.
    placeholderData: pageIndex === 0 ? keepPreviousData : undefined
  })
}

// ---- detail ----

export interface HostDetail {
  id: number
  name: string
  led: number
  status: string
  statusid: number
  heartbeat: number
  platform: { name: string; release: string; version: string; machine: string }
  cpu: { count: number }
  memory: { size: number }
  swap: { size: number }
  uptime: string
  agent: { id: string; version: string; controlfile: string; poll: number; startdelay: number; uptime: string }
  services: ServiceEntry[]
}

export interface HostDetailAnswer {
  records: { is_user_admin: boolean; serviceactions: boolean; host: HostDetail }
}

export function hostDetailQuery(hostId: number) {
  return queryOptions({
    queryKey: ['status', 'host', hostId] as const,
    queryFn: () => apiGet<HostDetailAnswer>('status/hosts/get', { id: hostId })
  })
}

// ---- service actions ----

export const serviceActions = ['start', 'stop', 'restart', 'monitor', 'unmonitor'] as const
export type ServiceAction = (typeof serviceActions)[number]

/** Asks the server to have the agent run the action; the agent's own error comes back as the message. */
export function runServiceAction(hostId: number, serviceId: number, action: ServiceAction): Promise<unknown> {
  return apiPost('action/service', { hostid: hostId, service: String(serviceId), action })
}
