// Ours, for the console's at-a-glance screens: status/hosts/overview (status/hosts/list's filters and
// paging, each host with its failing services, last report, since when it needs attention and its last
// 24 hours as a trend) and status/services/list (every service across the hosts the caller may view).
// Both cover only viewable hosts.
import {
  hostOverviewAnswer,
  overviewSortKeys,
  serviceListAnswer,
  serviceListSortKeys,
  type HostOverviewEntry,
  type ServiceOverviewEntry
} from '../../shared/api/overview'
import { serviceTypeLabels } from '../../shared/codes'
import { trendCells } from '../domain/trend'
import { endpoint, type ApiEndpoint } from '../http/api'
import { arg } from '../../shared/api/args'
import type { ApiDeps } from './deps'
import { groupBy, hostListParams, hostPageArgs, hostSelection, ledCodes, oneOf, pageFields, sortDir } from './status-args'

/** The hosts list's trend: the last 24 hours, an hour per cell. */
const TREND_CELLS = 24
const TREND_CELL = 3600
/** A page of status/services/list is never unbounded: 110,000 services would be megabytes. */
const MAX_SERVICES = 1000

export function statusOverviewEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const status = deps.store.status
  const overview = deps.store.statusOverview
  return [
    endpoint({
      path: 'status/hosts/overview',
      pureRead: true,
      summary: "status/hosts/list with each host's failing services, last report, since when it needs attention and its last 24 hours",
      extension: true,
      answer: hostOverviewAnswer,
      methods: ['GET', 'POST'],
      params: hostListParams,
      handle: ({ params, principal }) => {
        const { selection, sort, dir, total, startIndex, pageSize } = hostPageArgs(params, principal, overviewSortKeys, 'attention', (s) =>
          status.countHosts(s)
        )
        const now = Math.floor(Date.now() / 1000)
        const rows = overview.hostPage(selection, sort, dir, startIndex, pageSize, now)
        const ids = rows.map((h) => h.id)
        const failing = groupBy(overview.failingServices(ids), (s) => s.host_id)
        const intervals = groupBy(overview.downIntervals(ids, now - TREND_CELLS * TREND_CELL), (i) => i.host_id)
        const records: HostOverviewEntry[] = rows.map(({ firstseen, ...h }) => ({
          ...h,
          failing: (failing.get(h.id) ?? []).map(({ name, led, since }) => ({ name, led, since })),
          trend: trendCells(intervals.get(h.id) ?? [], now, TREND_CELLS, TREND_CELL, firstseen)
        }))
        return { records, ...pageFields(records.length, total, startIndex, pageSize, sort, dir) }
      }
    }),

    endpoint({
      path: 'status/services/list',
      pureRead: true,
      summary: 'Every service across the hosts the caller may view, sorted and paged',
      extension: true,
      answer: serviceListAnswer,
      methods: ['GET', 'POST'],
      params: { ...hostListParams, servicepattern: arg.text().optional(), serviceled: ledCodes },
      handle: ({ params, principal }) => {
        const selection = { hosts: hostSelection(params, principal), pattern: params.servicepattern?.trim(), leds: params.serviceled }
        const sort = oneOf(serviceListSortKeys, params.sort, 'attention')
        const dir = sortDir(params.dir)
        const total = overview.countServices(selection)
        const startIndex = params.startindex ?? 0
        const pageSize = Math.min(params.results ?? 100, MAX_SERVICES)
        const records: ServiceOverviewEntry[] = overview
          .servicePage(selection, sort, dir, startIndex, pageSize, Math.floor(Date.now() / 1000))
          .map((s) => ({ ...s, type: serviceTypeLabels[s.type] ?? 'Unknown' }))
        return { records, ...pageFields(records.length, total, startIndex, pageSize, sort, dir) }
      }
    })
  ]
}
