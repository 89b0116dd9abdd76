// map/id/range, map/id/statisticstype, map/id/hoststatus (compat 6.7): id → name tables, nested by
// the path's segments. Integer keys come out as strings, as JSON writes object keys.
import { hostStatusLabel, statisticTypeNames } from '../../shared/codes'
import { rangeNames } from '../../shared/ranges'
import { endpoint, type ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'
import { mapAnswer, mapNames } from '../../shared/api/maps'

const maps: Record<(typeof mapNames)[number], Readonly<Record<number, string>>> = {
  range: rangeNames,
  statisticstype: statisticTypeNames,
  hoststatus: hostStatusLabel
}

export function mapEndpoints(_deps: ApiDeps): ApiEndpoint[] {
  return mapNames.map((name) =>
    endpoint({
      path: `map/id/${name}`,
      methods: ['GET', 'POST'],
      params: {},
      summary: `The ${name} id → name table`,
      answer: mapAnswer(name),
      handle: () => ({ map: { id: { [name]: maps[name] } } })
    })
  )
}
