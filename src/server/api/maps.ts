// map/id/range, map/id/statisticstype, map/id/hoststatus (compat 6.7): id → name tables, nested by
// the path's segments. Integer keys come out as strings, as JSON writes object keys.
import { hostStatusLabel, statisticTypeNames } from '../../shared/codes'
import { rangeNames } from '../../shared/ranges'
import { endpoint, type ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'

const maps: Record<string, Readonly<Record<number, string>>> = {
  range: rangeNames,
  statisticstype: statisticTypeNames,
  hoststatus: hostStatusLabel
}

export function mapEndpoints(_deps: ApiDeps): ApiEndpoint[] {
  return Object.entries(maps).map(([name, table]) => endpoint({
    path: `map/id/${name}`, methods: ['GET', 'POST'], params: {},
    handle: () => ({ map: { id: { [name]: table } } })
  }))
}
