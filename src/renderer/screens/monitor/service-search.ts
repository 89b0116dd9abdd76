// The services list's URL search (/services?service=nginx&led=[0]&q=web&sort=since): the service and
// host name patterns, the service LED, the host group, the order and the page, read back leniently.
import { serviceListSortKeys, type ServiceListFilter, type ServiceListSortKey } from '../../api/overview'
import type { SortDir } from '../../api/status'
import { oneOf, optionalInt } from '../reports/search-params'
import { validateHostSearch } from './host-search'

export interface ServiceSearch {
  service?: string
  led?: number[]
  group?: number
  q?: string
  sort?: ServiceListSortKey
  dir?: SortDir
  page?: number
}

export function validateServiceSearch(raw: Record<string, unknown>): ServiceSearch {
  const { led, group, q } = validateHostSearch(raw)
  const search: ServiceSearch = {
    service: typeof raw.service === 'string' && raw.service.trim() !== '' ? raw.service.slice(0, 100) : undefined,
    led,
    group,
    q,
    sort: oneOf(serviceListSortKeys, raw.sort),
    dir: oneOf(['asc', 'desc'] as const, raw.dir),
    page: optionalInt(raw.page, 2)
  }
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined)) as ServiceSearch
}

export function serviceFilter(search: ServiceSearch): ServiceListFilter {
  return {
    servicepattern: search.service?.trim(),
    serviceled: search.led,
    hostpattern: search.q?.trim(),
    hostgroupid: search.group,
    sort: search.sort ?? 'attention',
    dir: search.dir ?? 'asc'
  }
}
