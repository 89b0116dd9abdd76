// map/id/range, map/id/statisticstype, map/id/hoststatus (compat 6.7): id → name tables, nested by
// the path's segments. Integer keys come out as strings, as JSON writes object keys. map/name/host
// (compat CLI-4) goes the other way: host name → id, for the hosts the caller may view.
import { hostStatusLabel, Permission, statisticTypeNames } from '../../shared/codes'
import { rangeNames } from '../../shared/ranges'
import { mayOnHost } from '../domain/permissions'
import { endpoint, type ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'
import { hostNameMapAnswer, mapAnswer, mapNames } from '../../shared/api/maps'

const maps: Record<(typeof mapNames)[number], Readonly<Record<number, string>>> = {
  range: rangeNames,
  statisticstype: statisticTypeNames,
  hoststatus: hostStatusLabel
}

export function mapEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const idMaps = mapNames.map((name) =>
    endpoint({
      path: `map/id/${name}`,
      methods: ['GET', 'POST'],
      params: {},
      summary: `The ${name} id → name table`,
      answer: mapAnswer(name),
      handle: () => ({ map: { id: { [name]: maps[name] } } })
    })
  )
  const hostNames = endpoint({
    path: 'map/name/host',
    pureRead: true,
    methods: ['GET', 'POST'],
    params: {},
    summary: 'Host name → host id, for the hosts the caller may view (of two hosts with one name, the older)',
    answer: hostNameMapAnswer,
    handle: ({ principal }) => {
      // A Map, not an object: a host may be named __proto__. By name, then id: the first of a name is the older.
      const host = new Map<string, number>()
      for (const { id, name } of store.groups.hostNames()) {
        if (!host.has(name) && mayOnHost(principal, id, Permission.View)) host.set(name, id)
      }
      return { map: { name: { host: Object.fromEntries(host) } } }
    }
  })
  return [...idMaps, hostNames]
}
