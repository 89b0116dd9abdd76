// Host status reads (status/hosts/summary, get) and service actions (action/service); the hosts list
// reads status/hosts/overview (overview.ts). Query keys start with 'status', so the live stream
// refreshes them when hosts report.
import { queryOptions } from '@tanstack/react-query'
import type { ServiceEntry } from '../../shared/api/status'
import { apiGet, apiPost } from './client'

export type { ServiceEntry, SortDir, StatisticEntry } from '../../shared/api/status'

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
