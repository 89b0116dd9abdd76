// The at-a-glance reads: status/hosts/overview (the hosts list) and status/services/list (services
// across hosts). Keys start with 'status', so the live stream refreshes them when hosts report.
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { HostOverviewEntry, OverviewPage, OverviewSortKey, ServiceListSortKey, ServiceOverviewEntry } from '../../shared/api/overview'
import type { SortDir } from '../../shared/api/status'
import { apiGet, type ApiParams } from './client'

export { overviewSortKeys, serviceListSortKeys } from '../../shared/api/keys'
export type {
  FailingService,
  HostOverviewEntry,
  OverviewPage,
  OverviewSortKey,
  ServiceListSortKey,
  ServiceOverviewEntry
} from '../../shared/api/overview'

export interface HostOverviewFilter {
  hostid?: readonly number[]
  led?: readonly number[]
  hostgroupid?: number
  hostpattern?: string
  sort?: OverviewSortKey
  dir?: SortDir
}

/** One page of the hosts list; pages are separate queries so a scroll to row 9,000 loads only that page. */
export function hostOverviewPageQuery(filter: HostOverviewFilter, pageIndex: number, pageSize: number) {
  return pageQuery<HostOverviewEntry>('overview', 'status/hosts/overview', { ...filter }, pageIndex, pageSize)
}

/** One host's entry (its last report, since when it needs attention, until when it is muted): the first record, if it may be viewed. */
export function hostOverviewQuery(hostId: number) {
  return hostOverviewPageQuery({ hostid: [hostId] }, 0, 1)
}

export interface ServiceListFilter {
  servicepattern?: string
  serviceled?: readonly number[]
  hostpattern?: string
  hostgroupid?: number
  sort?: ServiceListSortKey
  dir?: SortDir
}

export function serviceListPageQuery(filter: ServiceListFilter, pageIndex: number, pageSize: number) {
  return pageQuery<ServiceOverviewEntry>('services', 'status/services/list', { ...filter }, pageIndex, pageSize)
}

function pageQuery<T>(name: string, path: string, filter: ApiParams, pageIndex: number, pageSize: number) {
  return queryOptions({
    queryKey: ['status', name, filter, pageIndex, pageSize] as const,
    queryFn: () => apiGet<OverviewPage<T>>(path, { ...filter, results: pageSize, startindex: pageIndex * pageSize }),
    // While a new filter loads, the old rows stay instead of a blank list.
    placeholderData: pageIndex === 0 ? keepPreviousData : undefined
  })
}
