// The console's at-a-glance reads (ours, not M/Monit's): status/hosts/overview, the hosts list with
// what fails and since when, and status/services/list, every service across hosts.
import { hostSortKeys, type HostStatusEntry } from './status'

/** status/hosts/overview's `sort`: the hosts list's keys, plus 'attention' (silent, red, orange, longest failing first). */
export const overviewSortKeys = [...hostSortKeys, 'attention', 'lastreport'] as const
export type OverviewSortKey = (typeof overviewSortKeys)[number]

/** A red (failed) or orange (changed) service of a host. */
export interface FailingService {
  name: string
  led: number
  /** Unix seconds of its oldest active failure event; null when none is open (an orange change). */
  since: number | null
}

export interface HostOverviewEntry extends HostStatusEntry {
  /** Unix seconds (server clock) of the host's last message. */
  lastreport: number
  /** Its red services first, then orange, in agent order. */
  failing: FailingService[]
  /** Since when it needs attention: when it fell silent, else its oldest active failure; null when neither. */
  since: number | null
  /** The last 24 hours, one cell per hour, oldest first: 0 up, 1 a service down, 2 the host silent, 3 not known yet. */
  trend: number[]
}

/** status/services/list's `sort`; 'attention' is red, orange, gray, green, then longest failing first. */
export const serviceListSortKeys = ['attention', 'hostname', 'name', 'type', 'status', 'since'] as const
export type ServiceListSortKey = (typeof serviceListSortKeys)[number]

/** One service of one host in status/services/list. */
export interface ServiceOverviewEntry {
  hostid: number
  hostname: string
  /** The host's heartbeat: 0 when silent, so the service's state is stale. */
  heartbeat: number
  id: number
  name: string
  type: string
  led: number
  status: string
  since: number | null
}

/** The paged answer of both reads (the api/2 paging fields). */
export interface OverviewPage<T> {
  records: T[]
  recordsReturned: number
  pageSize: number
  totalRecords: number
  startIndex: number
  sort: string
  dir: 'asc' | 'desc'
}
