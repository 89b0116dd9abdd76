// Ours, for the console's at-a-glance screens: status/hosts/overview (status/hosts/list's filters and
// paging, each host with its failing services, last report and since when it needs attention) and
// status/services/list (every service across the hosts the caller may view). Both cover only viewable hosts.
import {
  overviewSortKeys, serviceListSortKeys, type HostOverviewEntry, type ServiceOverviewEntry
} from '../../shared/api/overview'
import { serviceTypeLabels } from '../../shared/codes'
import { endpoint, type ApiEndpoint } from '../http/api'
import { arg } from '../http/params'
import { StatusRepository } from '../store/status'
import { StatusOverviewRepository } from '../store/status-overview'
import type { ApiDeps } from './deps'
import { groupBy, hostListParams, hostSelection, ledCodes, oneOf, page, pageFields, sortDir } from './status-args'

/** A page of status/services/list is never unbounded: 110,000 services would be megabytes. */
const MAX_SERVICES = 1000

export function statusOverviewEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const status = new StatusRepository(deps.store.db, deps.store.sql)
  const overview = new StatusOverviewRepository(deps.store.db, deps.store.sql)
  return [
    endpoint({
      path: 'status/hosts/overview', methods: ['GET', 'POST'], params: hostListParams,
      handle: ({ params, principal }) => {
        const selection = hostSelection(params, principal)
        const sort = oneOf(overviewSortKeys, params.sort, 'attention')
        const dir = sortDir(params.dir)
        const total = status.countHosts(selection)
        const { startIndex, pageSize } = page(total, params)
        const rows = overview.hostPage(selection, sort, dir, startIndex, pageSize)
        const failing = groupBy(overview.failingServices(rows.map((h) => h.id)), (s) => s.host_id)
        const records: HostOverviewEntry[] = rows.map((h) => ({
          ...h, failing: (failing.get(h.id) ?? []).map(({ name, led, since }) => ({ name, led, since }))
        }))
        return { records, ...pageFields(records.length, total, startIndex, pageSize, sort, dir) }
      }
    }),

    endpoint({
      path: 'status/services/list', methods: ['GET', 'POST'],
      params: { ...hostListParams, servicepattern: arg.text().optional(), serviceled: ledCodes },
      handle: ({ params, principal }) => {
        const selection = { hosts: hostSelection(params, principal), pattern: params.servicepattern?.trim(), leds: params.serviceled }
        const sort = oneOf(serviceListSortKeys, params.sort, 'attention')
        const dir = sortDir(params.dir)
        const total = overview.countServices(selection)
        const startIndex = params.startindex ?? 0
        const pageSize = Math.min(params.results ?? 100, MAX_SERVICES)
        const records: ServiceOverviewEntry[] = overview.servicePage(selection, sort, dir, startIndex, pageSize)
          .map((s) => ({ ...s, type: serviceTypeLabels[s.type] ?? 'Unknown' }))
        return { records, ...pageFields(records.length, total, startIndex, pageSize, sort, dir) }
      }
    })
  ]
}
