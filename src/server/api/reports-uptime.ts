// reports/uptime/list (hosts) and reports/uptime/get (one host's services plus `Monit`) — spec: Uptime
// reports, Uptime item; compat 6.5. The maths and the range definitions are in domain/uptime.ts.
// A host item's downtime is the host's silence (no report from Monit); service failures show in `get`,
// where the silence is the `Monit` item. A host the caller may not view answers like an unknown one.
// The time the server itself was not running and the time before a host first reported are unknown,
// neither up nor down (issue 12): our additive fields `unknown`, `serverdowntime` and `serverdown` say so.
import { uptimeReport, type ServerDowntime, type UptimeItem, type UptimeReport } from '../../shared/api/uptime'
import { HostStatus, MonitorState, Permission } from '../../shared/codes'
import { Range } from '../../shared/ranges'
import { HEARTBEAT_SERVICE } from '../events/heartbeat-events'
import { mayOnHost, viewableHostIds } from '../domain/permissions'
import { downtimesWithin, type Downtime } from '../domain/server-runs'
import { averageOf, downtimeText, unknownSpans, uptimeOf, type Span, type Uptime } from '../domain/uptime'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { UptimeHostRow, UptimeRepository } from '../store/uptime'
import type { ApiDeps } from './deps'
import { rangeParams, selectedRange } from './report-range'

/** The `Monit` item has no service row; 0 is never a service id (AUTOINCREMENT starts at 1). */
const MONIT_ITEM_ID = 0

export function uptimeReportEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const uptime = deps.store.uptime
  const runs = deps.store.serverRuns
  return [
    endpoint({
      path: 'reports/uptime/list',
      summary: "Every host's uptime over a range",
      answer: uptimeReport,
      methods: ['GET', 'POST'],
      params: rangeParams,
      handle: ({ params, principal }): UptimeReport => {
        const now = nowSec()
        const { range, span } = selectedRange(params, now, Range.Now)
        const serverDown = runs.downtimes(span)
        const visible = viewableHostIds(principal)
        const items = uptime
          .hosts(visible && new Set(visible))
          .map((h) =>
            item(
              h.id,
              h.status === HostStatus.Active,
              h.hostname,
              uptimeOf(span, now, uptime.downIntervals(h.id, null, span), unknownSpans(h.created_at, serverDown)),
              uptime.hostEventCount(h.id, span)
            )
          )
        return report(range, span, now, serverDown, items)
      }
    }),

    endpoint({
      path: 'reports/uptime/get',
      summary: "One host's services' uptime over a range, with the host's own (Monit) item",
      answer: uptimeReport,
      methods: ['GET', 'POST'],
      // `hostid` as some clients send it (compat 6.5); `id` wins when both come.
      params: { id: arg.int().optional(), hostid: arg.int().optional(), ...rangeParams },
      handle: ({ params, principal }): UptimeReport => {
        const id = params.id ?? params.hostid
        if (id === undefined) throw badArgument('id', `is required`)
        const host = mayOnHost(principal, id, Permission.View) ? uptime.host(id) : undefined
        if (!host) throw new HttpError(404, `no host with id ${id}`)
        const now = nowSec()
        const { range, span } = selectedRange(params, now, Range.Now)
        const serverDown = runs.downtimes(span)
        return report(range, span, now, serverDown, serviceItems(uptime, host, span, now, serverDown))
      }
    })
  ]
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000)
}

/** The `Monit` item (host silence) first, then the services in the agent's order; unknown before the host's first report. */
function serviceItems(repo: UptimeRepository, host: UptimeHostRow, span: Span, now: number, serverDown: Downtime[]): Measured[] {
  const events = repo.eventCountsByName(host.id, span)
  const monitNameId = repo.nameId(HEARTBEAT_SERVICE)
  const unknown = unknownSpans(host.created_at, serverDown)
  const measure = (nameId: number | null) => uptimeOf(span, now, repo.downIntervals(host.id, nameId, span), unknown)
  const monit = item(
    MONIT_ITEM_ID,
    host.status === HostStatus.Active,
    HEARTBEAT_SERVICE,
    measure(null),
    monitNameId === undefined ? 0 : (events.get(monitNameId) ?? 0)
  )
  return [
    monit,
    ...repo.services(host.id).map((s) => item(s.id, s.monitor !== MonitorState.Off, s.name, measure(s.name_id), events.get(s.name_id) ?? 0))
  ]
}

/** An item with the figures behind its text, which the report's average needs. */
interface Measured {
  entry: UptimeItem
  figures: Uptime
}

function item(id: number, active: boolean, name: string, figures: Uptime, events: number): Measured {
  return {
    entry: {
      id,
      active: active ? 1 : 0,
      name,
      uptime: figures.uptime,
      downtime: downtimeText(figures.downtime),
      events,
      unknown: downtimeText(figures.unknown)
    },
    figures
  }
}

function report(range: Range, span: Span, now: number, serverDown: Downtime[], items: Measured[]): UptimeReport {
  const avg = averageOf(items.map((i) => i.figures))
  // The server's downtime in the report's own minutes: what every item has as unknown at least.
  const serverMinutes = uptimeOf(span, now, [], serverDown).unknown
  const serverdown: ServerDowntime[] = downtimesWithin(serverDown, span, now).map((d) => ({ from: d.start, to: d.end }))
  return {
    range,
    datefrom: span.from,
    dateto: span.to,
    uptime: avg.uptime,
    downtime: downtimeText(avg.downtime),
    items: items.map((i) => i.entry),
    serverdowntime: downtimeText(serverMinutes),
    serverdown
  }
}
