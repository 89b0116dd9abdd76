// reports/forecasts/{list,host} (ours; docs/http-api.md): when resources reach 100 % at their current
// trend (issue 30 §3). The list reads what the forecast job stored, soonest first, on the hosts the caller
// may view; a host's forecasts are computed from its history at each request. A host the caller may not
// view answers like an unknown one (404), as in the other reports.
import { forecastList, hostForecasts, type ForecastList, type HostForecasts } from '../../shared/api/forecasts'
import { arg } from '../../shared/api/args'
import { Permission } from '../../shared/codes'
import { mayOnHost, viewableHostIds } from '../domain/permissions'
import { forecastItem, forecastSeries } from '../history/forecaster'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import type { ApiDeps } from './deps'

const DEFAULT_WITHIN_HOURS = 168
const DEFAULT_RESULTS = 100

export function forecastReportEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const { store } = deps
  return [
    endpoint({
      path: 'reports/forecasts/list',
      pureRead: true,
      summary: 'The resources (filesystem space and inodes, memory, swap) reaching 100 % within some hours at their trend, soonest first',
      extension: true,
      answer: forecastList,
      methods: ['GET', 'POST'],
      params: {
        within: arg.intIn(1, 8760, 'hours, from 1 to 8760').optional(),
        results: arg.intIn(1, 1000, 'a page size from 1 to 1000').optional()
      },
      handle: ({ params, principal }): ForecastList => {
        const until = Math.floor(Date.now() / 1000) + (params.within ?? DEFAULT_WITHIN_HOURS) * 3600
        const { rows, total } = store.forecasts.runningOut(until, viewableHostIds(principal), params.results ?? DEFAULT_RESULTS)
        return { records: rows.map((r) => forecastItem(r, r)), totalRecords: total }
      }
    }),
    endpoint({
      path: 'reports/forecasts/host',
      pureRead: true,
      summary: "One host's resources and when each reaches 100 % at its trend, computed from its history now",
      extension: true,
      answer: hostForecasts,
      methods: ['GET', 'POST'],
      params: { hostid: arg.int() },
      handle: ({ params, principal }): HostForecasts => {
        const hostId = params.hostid
        if (!mayOnHost(principal, hostId, Permission.View) || !store.hosts.findById(hostId))
          throw new HttpError(404, `no host with id ${hostId}`)
        const series = store.forecasts.seriesOfHost(hostId)
        const names = new Map(series.map((s) => [s.id, s]))
        const rows = forecastSeries(store.history, series, Math.floor(Date.now() / 1000))
        return { hostid: hostId, records: rows.map((r) => forecastItem(r, names.get(r.statistic_id)!)) }
      }
    })
  ]
}
