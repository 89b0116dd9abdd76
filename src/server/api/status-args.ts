// Arguments and paging shared by the status reads (status/hosts/*, status/services/list): id and LED
// lists, and the api/2 paging fields (PAGE-1..4).
import { z } from 'zod'
import { arg, idList, sortedPageArgs } from '../../shared/api/args'
import type { SortDir } from '../../shared/api/common'
import { hostStatusLabel } from '../../shared/codes'
import { viewableHostIds, type Principal } from '../domain/permissions'
import type { HostSelection } from '../store/status'

export const ledCodes = z.array(arg.intIn(0, 3, 'a LED code 0 to 3')).optional()

export function oneOf<K extends string>(keys: readonly K[], value: string | undefined, fallback: K): K {
  const key = value?.trim().toLowerCase()
  return keys.find((k) => k === key) ?? fallback
}

export function sortDir(value: string | undefined): SortDir {
  return value?.trim().toLowerCase() === 'desc' ? 'desc' : 'asc'
}

/** Without `results` a page holds everything: clients that never page must not lose hosts (PAGE-4). */
export function page(total: number, p: { results?: number; startindex?: number }): { startIndex: number; pageSize: number } {
  return { startIndex: p.startindex ?? 0, pageSize: p.results ?? total }
}

/** The api/2 paging fields, served on every prefix (PAGE-2). */
export function pageFields(returned: number, total: number, startIndex: number, pageSize: number, sort: string, dir: SortDir) {
  return { recordsReturned: returned, pageSize, totalRecords: total, startIndex, sort, dir }
}

/** The filters of status/hosts/list, which status/hosts/overview shares. */
export const hostListParams = {
  hostid: idList,
  hostpattern: arg.text().optional(),
  hostgroupid: idList,
  led: ledCodes,
  // Older clients' filters (compat 6.1): applied when meaningful, otherwise ignored.
  status: z.array(arg.text()).optional(),
  platform: arg.text().optional(),
  machine: arg.text().optional(),
  ...sortedPageArgs
}

/** The selection, order and page of a hosts read: `keys` are its orders, `fallback` the default one. */
export function hostPageArgs<K extends string>(
  params: z.output<z.ZodObject<typeof hostListParams>>,
  principal: Principal,
  keys: readonly K[],
  fallback: K,
  count: (selection: HostSelection) => number
) {
  const selection = hostSelection(params, principal)
  const total = count(selection)
  return { selection, sort: oneOf(keys, params.sort, fallback), dir: sortDir(params.dir), total, ...page(total, params) }
}

/** The hosts those filters select among the ones the caller may view. */
export function hostSelection(params: z.output<z.ZodObject<typeof hostListParams>>, principal: Principal): HostSelection {
  return {
    visible: viewableHostIds(principal),
    hostIds: params.hostid,
    groupIds: params.hostgroupid,
    pattern: params.hostpattern,
    leds: params.led,
    statusIds: hostStatusIds(params.status),
    platform: params.platform,
    machine: params.machine
  }
}

/** `status` may come as the code or its label; values that are neither leave the filter off. */
function hostStatusIds(values: readonly string[] | undefined): number[] | undefined {
  const wanted = values?.map((v) => v.trim().toLowerCase())
  const matches = Object.entries(hostStatusLabel)
    .filter(([id, label]) => wanted?.includes(id) || wanted?.includes(label.toLowerCase()))
    .map(([id]) => Number(id))
  return matches.length > 0 ? matches : undefined
}

export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const list = groups.get(key(row))
    if (list) list.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}
