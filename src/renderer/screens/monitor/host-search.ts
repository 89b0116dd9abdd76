// The hosts list's filters and order as URL search parameters (/hosts?led=[0,1]&q=web&sort=cpu&dir=desc),
// so a filtered list can be bookmarked, shared and reached from the dashboard.
import { overviewSortKeys, type HostOverviewFilter, type OverviewSortKey } from '../../api/overview'
import type { SortDir } from '../../api/status'

export interface HostSearch {
  led?: number[]
  group?: number
  q?: string
  sort?: OverviewSortKey
  dir?: SortDir
}

/** Keeps only well-formed values: a hand-edited URL never produces a bad request. */
export function validateHostSearch(search: Record<string, unknown>): HostSearch {
  const result: HostSearch = {}
  const leds = (Array.isArray(search.led) ? search.led : search.led === undefined ? [] : [search.led])
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0 && n <= 3)
  if (leds.length > 0) result.led = [...new Set(leds)].sort()
  const group = Number(search.group)
  if (Number.isInteger(group) && group > 0) result.group = group
  if (typeof search.q === 'string' && search.q.trim() !== '') result.q = search.q.slice(0, 100)
  if (overviewSortKeys.includes(search.sort as OverviewSortKey)) result.sort = search.sort as OverviewSortKey
  if (search.dir === 'asc' || search.dir === 'desc') result.dir = search.dir
  return result
}

/** Needing attention first unless another order is chosen. */
export function hostFilter(search: HostSearch): HostOverviewFilter {
  return {
    led: search.led,
    hostgroupid: search.group,
    hostpattern: search.q?.trim(),
    sort: search.sort ?? 'attention',
    dir: search.dir ?? 'asc'
  }
}
