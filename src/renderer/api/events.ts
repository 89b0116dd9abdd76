// The event reports (reports/events/*) and the few status reads their filters need. Keys start with
// 'events' so that the live stream refreshes them when an event arrives. The pickers' keys start with
// 'event-pickers', which the stream leaves alone: names change rarely, while status changes every
// second on a busy server and would refetch them for nothing.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { SortDir } from '../../shared/api/common'
import type { EventDetail, EventGetAnswer, EventListEntry, EventPage, EventSortKey } from '../../shared/api/events'
import type { GroupList, HostGroup } from '../../shared/api/groups'
import type { HostGetAnswer, HostList, HostStatusEntry, ServiceEntry } from '../../shared/api/status'
import { Range, resolveRange } from '../../shared/ranges'
import { apiGet, apiPost, type ApiParams } from './client'

export type { SortDir } from '../../shared/api/common'
export { eventSortKeys } from '../../shared/api/keys'
export type { EventDetail, EventListEntry, EventNote, EventPage, EventSortKey } from '../../shared/api/events'

/** What the events screen keeps in its URL; every field narrows the list, absent ones do not. */
export interface EventSearch {
  host?: number[]
  group?: number
  /** Service name id: the same name on every host. */
  service?: number
  servicegroup?: number
  servicetype?: number
  /** Event class bit (shared/codes eventClasses). */
  eventtype?: number
  /** 0 success, 1 error, 2 change */
  state?: number
  /** 1 active errors, 2 active errors not dismissed */
  active?: number
  /** A quick range (shared/ranges), resolved when the list is asked for; Custom: from..to. */
  range?: number
  /** Unix seconds: from inclusive; to exclusive for a custom range, inclusive without a range (links from uptime). */
  from?: number
  to?: number
  sort?: EventSortKey
  dir?: SortDir
  /** 1-based page number */
  page?: number
  size?: number
}

export const EVENT_PAGE_SIZES = [50, 100, 250, 500] as const
export const DEFAULT_EVENT_PAGE_SIZE = 100

/** The list's API arguments for the screen's search (page numbers become offsets). */
export function eventListParams(search: EventSearch, now = Date.now() / 1000): ApiParams {
  const size = search.size ?? DEFAULT_EVENT_PAGE_SIZE
  return {
    ...rangeDates(search, now),
    hostid: search.host,
    hostgroupid: search.group,
    servicenameid: search.service,
    servicegroupid: search.servicegroup,
    servicetype: search.servicetype,
    eventtype: search.eventtype,
    state: search.state,
    active: search.active,
    sort: search.sort,
    dir: search.dir,
    results: size,
    startindex: ((search.page ?? 1) - 1) * size
  }
}

/** A range from the URL as datefrom/dateto (unix seconds, inclusive); none: no bound. */
export function rangeDates(search: Pick<EventSearch, 'range' | 'from' | 'to'>, now = Date.now() / 1000): ApiParams {
  if (search.range === undefined) return { datefrom: search.from, dateto: search.to }
  if (search.range === Range.Custom) return { datefrom: search.from, dateto: search.to === undefined ? undefined : search.to - 1 }
  // A list's relative range runs to now: what arrived in the current minute is listed too (charts stop
  // at the last whole minute, lists do not).
  const span = resolveRange(search.range as Exclude<Range, typeof Range.Custom>, now)
  return { datefrom: span.from }
}

export const eventListQuery = (search: EventSearch) =>
  queryOptions({
    queryKey: ['events', 'list', search],
    queryFn: () => apiGet<EventPage>('reports/events/list', eventListParams(search)),
    // A new filter or page keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData
  })

export const eventQuery = (id: number) =>
  queryOptions({
    queryKey: ['events', 'detail', id],
    queryFn: async () => (await apiGet<EventGetAnswer>('reports/events/get', { id })).records.event
  })

/** Whether an error event is still failing, and if so whether someone dismissed it. */
export type EventActivity = 'active' | 'dismissed' | 'over'

export function eventActivity(event: Pick<EventDetail, 'active' | 'dismissed'>): EventActivity {
  if (!event.active) return 'over'
  return event.dismissed ? 'dismissed' : 'active'
}

export function useAddEventNote(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (message: string) => (await apiPost<EventGetAnswer>('reports/events/note', { id, message })).records.event,
    onSuccess: (event) => {
      queryClient.setQueryData(eventQuery(id).queryKey, event)
      // The list shows which events have notes.
      void queryClient.invalidateQueries({ queryKey: ['events', 'list'] })
    }
  })
}

export function useDismissEvent(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiPost('reports/events/dismiss', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['events'] })
  })
}

// ---- what the filters pick from ----

export type HostOption = Pick<HostStatusEntry, 'id' | 'hostname'>

const HOST_OPTIONS = 50

/** Hosts whose name contains `pattern`, found by the server: the picker never loads 10,000 hosts. */
export const hostOptionsQuery = (pattern: string) =>
  queryOptions({
    queryKey: ['event-pickers', 'hosts', pattern],
    queryFn: async () =>
      (
        await apiGet<HostList>('status/hosts/list', {
          hostpattern: pattern,
          results: HOST_OPTIONS,
          sort: 'hostname',
          dir: 'asc'
        })
      ).records.map(({ id, hostname }) => ({ id, hostname })),
    placeholderData: keepPreviousData
  })

/** The names of the hosts already chosen (the URL holds only their ids). */
export const hostNamesQuery = (ids: readonly number[]) =>
  queryOptions({
    queryKey: ['event-pickers', 'host-names', ids],
    queryFn: async () =>
      (await apiGet<HostList>('status/hosts/list', { hostid: ids })).records.map(({ id, hostname }) => ({ id, hostname })),
    enabled: ids.length > 0
  })

export type ServiceNameOption = Pick<ServiceEntry, 'nameid' | 'name'>

/** The services of one host, by name id: what the service filter offers once hosts are chosen. */
export const hostServicesQuery = (hostId: number) =>
  queryOptions({
    queryKey: ['event-pickers', 'services', hostId],
    queryFn: async () =>
      (await apiGet<HostGetAnswer>('status/hosts/get', { id: hostId })).records.host.services.map(({ nameid, name }) => ({ nameid, name }))
  })

export type HostGroupOption = Pick<HostGroup, 'id' | 'name'>

/** Host groups are listed to administrators only; others filter by host. */
export const hostGroupsQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: ['admin', 'groups', 'options'],
    queryFn: async () => (await apiGet<GroupList>('admin/groups/list')).groups,
    enabled
  })

// ---- export ----

/** The most rows an export asks for per request (the server's page limit). */
const EXPORT_PAGE = 1000

/** Every event the search's filters and sort choose, with its notes, page after page, for a download. */
export async function allEvents(search: EventSearch): Promise<EventListEntry[]> {
  const all: EventListEntry[] = []
  for (let page = 1; ; page++) {
    const params = { ...eventListParams({ ...search, page, size: EXPORT_PAGE }), notes: 1 }
    const answer = await apiGet<EventPage>('reports/events/list', params)
    all.push(...answer.records)
    if (answer.records.length < EXPORT_PAGE || all.length >= answer.totalRecords) return all
  }
}
