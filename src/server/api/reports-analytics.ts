// reports/analytics/get: history charts of one host's statistics. M/Monit never published this endpoint;
// this is our definition (docs/http-api.md, "reports/analytics/get"). The answer comes at the finest resolution
// that covers the range with at most ~1,000 points per series (history/resolution.ts). A host the
// caller may not view answers like an unknown one (404), as in the other reports.
import { analyticsReport, type AnalyticsReport, type Point } from '../../shared/api/analytics'
import { Permission, statisticTypeNames } from '../../shared/codes'
import { Range } from '../../shared/ranges'
import { mayOnHost } from '../domain/permissions'
import type { Bucket } from '../history/buckets'
import { chooseResolution } from '../history/resolution'
import { readSeries } from '../history/series-reader'
import { NOT_CHARTED, unitOf } from '../history/units'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { ApiDeps } from './deps'
import { rangeParams, selectedRange } from './report-range'

export function analyticsReportEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const { store } = deps
  return [
    endpoint({
      path: 'reports/analytics/get',
      pureRead: true,
      summary: "History charts of one host's statistics over a range",
      extension: true,
      answer: analyticsReport,
      methods: ['GET', 'POST'],
      params: {
        hostid: arg.int(),
        serviceid: arg.int().optional(),
        service: arg.required(1000).optional(),
        type: arg.int('a statistic type code').optional(),
        descriptor: arg.text(1000).optional(),
        ...rangeParams
      },
      handle: ({ params, principal }): AnalyticsReport => {
        const hostId = params.hostid
        const host = mayOnHost(principal, hostId, Permission.View) ? store.hosts.findById(hostId) : undefined
        if (!host) throw new HttpError(404, `no host with id ${hostId}`)
        const now = Math.floor(Date.now() / 1000)
        const { range, span } = selectedRange(params, now, Range.Last24Hours)
        const { history } = store
        const resolution = chooseResolution(span.from, span.to, now, history.settings.retention())
        const rows = history.series
          .seriesOfHost(hostId, {
            serviceId: params.serviceid,
            service: params.service,
            type: params.type,
            descriptor: params.descriptor
          })
          .filter((s) => !NOT_CHARTED.has(s.type))
        const buckets = readSeries(
          history,
          hostId,
          rows.map((s) => s.id),
          resolution.level,
          span.from,
          span.to,
          resolution.width
        )
        return {
          hostid: hostId,
          range,
          datefrom: span.from,
          dateto: span.to,
          resolution: resolution.width,
          level: resolution.level,
          series: rows.map((s) => ({
            serviceid: s.service_id,
            service: s.service,
            type: s.type,
            typename: statisticTypeNames[s.type] ?? `Statistic${s.type}`,
            descriptor: s.descriptor,
            unit: unitOf(s.type),
            points: (buckets.get(s.id) ?? []).map(point)
          }))
        }
      }
    })
  ]
}

/** Averages are sums over counts: rounded to 12 significant digits so that 0.1 + 0.2 reads 0.3. */
function point(b: Bucket): Point {
  return [b.time, Number((b.sum / b.count).toPrecision(12)), b.min, b.max]
}
