// reports/uptime/list (hosts) and reports/uptime/get (one host's services plus `Monit`) — spec: Uptime
// reports, Uptime item; compat 6.5. The maths and the range definitions are in domain/uptime.ts.
// A host item's downtime is the host's silence (no report from Monit): "agent reporting". Its services'
// failures show as our additive `servicesup` (issue 28: a host whose services were down all day read 100 %),
// and one by one in `get`, where the silence is the `Monit` item. A host the caller may not view answers
// like an unknown one. The time the server itself was not running and the time before a host first
// reported are unknown, neither up nor down (issue 12): our additive fields `unknown`, `serverdowntime` and
// `serverdown` say so. The list measures the whole fleet from a few set-based reads (UptimeRepository.fleetDowns),
// then again only the hosts that changed.
import { uptimeReport, type ServerDowntime, type UptimeItem, type UptimeReport } from '../../shared/api/uptime'
import { HostStatus, MonitorState, Permission } from '../../shared/codes'
import { Range } from '../../shared/ranges'
import { HEARTBEAT_SERVICE } from '../events/heartbeat-events'
import { mayOnHost, viewableHostIds } from '../domain/permissions'
import { downtimesWithin, type Downtime } from '../domain/server-runs'
import {
  averageOf,
  downtimeText,
  elapsedEnd,
  meanPercent,
  servicesUpOf,
  unknownSpans,
  uptimeOf,
  type DownInterval,
  type Span,
  type Uptime
} from '../domain/uptime'
import { endpoint, type ApiEndpoint } from '../http/api'
import { Memo } from '../memo'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { HostDowns, UptimeHostRow, UptimeRepository } from '../store/uptime'
import { UptimeHosts } from './uptime-hosts'
import type { ApiDeps } from './deps'
import { rangeParams, selectedRange } from './report-range'

/** The `Monit` item has no service row; 0 is never a service id (AUTOINCREMENT starts at 1). */
const MONIT_ITEM_ID = 0

export function uptimeReportEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const uptime = deps.store.uptime
  const runs = deps.store.serverRuns
  // Every host's measurement per range, kept while nothing it came from has changed (issue 28: a week of
  // 10,000 hosts' down intervals took 150 ms and more to read and measure; the screen asks again as it is
  // reopened, refetched and exported). A range's key holds what all hosts share (the span, the minute
  // measured up to, the server's downtime); each host's measurement holds its own count of changes
  // (migration 023). The event counts are read every time.
  const measuresByRange = new Memo<Map<number, HostMeasure>>(RANGES_KEPT)
  const fleet = new UptimeHosts(uptime)
  return [
    endpoint({
      path: 'reports/uptime/list',
      pureRead: true,
      summary: "Every host's uptime over a range",
      answer: uptimeReport,
      methods: ['GET', 'POST'],
      params: rangeParams,
      handle: ({ params, principal }): UptimeReport => {
        const now = nowSec()
        const { range, span } = selectedRange(params, now, Range.Now)
        // The hosts' counts of changes before their intervals: a write after this read is measured by the
        // next request, never missed.
        const hosts = fleet.current()
        const serverDown = runs.downtimes(span)
        const key = [span.from, span.to, elapsedEnd(span, now), JSON.stringify(serverDown)].join(' ')
        const kept = measuresByRange.get(key, () => new Map())
        measureChanged(uptime, hosts, kept, span, now, serverDown)
        const visible = viewableHostIds(principal)
        const shown = visible && new Set(visible)
        const events = uptime.eventCountsByHost(span)
        const items = hosts
          .filter((h) => !shown || shown.has(h.id))
          .map((h) => {
            const m = kept.get(h.id)!
            return item(h.id, h.status === HostStatus.Active, h.hostname, m.figures, events.get(h.id) ?? 0, m.servicesUp)
          })
        const servicesUp = meanPercent(items.flatMap((i) => (typeof i.entry.servicesup === 'number' ? [i.entry.servicesup] : [])))
        return report(range, span, now, serverDown, items, servicesUp)
      }
    }),

    endpoint({
      path: 'reports/uptime/get',
      pureRead: true,
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
        const { items, servicesUp } = serviceItems(uptime, host, span, now, serverDown)
        return report(range, span, now, serverDown, items, servicesUp)
      }
    })
  ]
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000)
}

/** Ranges whose measurements are kept (the screen's quick ranges and a custom one or two). */
const RANGES_KEPT = 4
/**
 * Past this many hosts to measure again, the whole fleet's intervals are read rather than theirs (a minute's
 * new span measures every host; a burst of changes, many of them).
 */
const MEASURED_APART = 500
const NOTHING_DOWN: HostDowns = { downs: [], monitored: 0 }

/** A host of the list, measured: its silence as its uptime, its monitored services' failures as services up. */
interface HostMeasure {
  /** What it was measured from: the host's count of changes then (its first report is one of them). */
  generation: number
  figures: Uptime
  servicesUp: number | null
}

/** Measures again, in `kept`, the hosts whose intervals or services changed since, and forgets the hosts gone. */
function measureChanged(
  repo: UptimeRepository,
  hosts: UptimeHostRow[],
  kept: Map<number, HostMeasure>,
  span: Span,
  now: number,
  serverDown: Downtime[]
): void {
  const changed = hosts.filter((h) => kept.get(h.id)?.generation !== h.uptime_generation)
  if (changed.length === 0 && kept.size === hosts.length) return
  const downs =
    changed.length > MEASURED_APART
      ? repo.fleetDowns(span)
      : repo.hostsDowns(
          changed.map((h) => h.id),
          span
        )
  for (const h of changed) kept.set(h.id, measureHost(h, downs.get(h.id) ?? NOTHING_DOWN, span, now, serverDown))
  if (kept.size > hosts.length) {
    const present = new Set(hosts.map((h) => h.id))
    for (const id of kept.keys()) if (!present.has(id)) kept.delete(id)
  }
}

function measureHost(h: UptimeHostRow, { downs, monitored }: HostDowns, span: Span, now: number, serverDown: Downtime[]): HostMeasure {
  const unknown = unknownSpans(h.created_at, serverDown)
  const silences: DownInterval[] = []
  const failures = new Map<number, DownInterval[]>()
  for (const row of downs) {
    if (row.service_name_id === null) silences.push(row)
    else if (failures.has(row.service_name_id)) failures.get(row.service_name_id)!.push(row)
    else failures.set(row.service_name_id, [row])
  }
  return {
    generation: h.uptime_generation,
    figures: uptimeOf(span, now, silences, unknown),
    servicesUp: servicesUpOf(span, now, monitored, [...failures.values()], unknown)
  }
}

/** The `Monit` item (host silence) first, then the services in the agent's order; unknown before the host's first report. */
function serviceItems(
  repo: UptimeRepository,
  host: UptimeHostRow,
  span: Span,
  now: number,
  serverDown: Downtime[]
): { items: Measured[]; servicesUp: number | null } {
  const events = repo.eventCountsByName(host.id, span)
  const monitNameId = repo.nameId(HEARTBEAT_SERVICE)
  const unknown = unknownSpans(host.created_at, serverDown)
  const monit = item(
    MONIT_ITEM_ID,
    host.status === HostStatus.Active,
    HEARTBEAT_SERVICE,
    uptimeOf(span, now, repo.downIntervals(host.id, null, span), unknown),
    monitNameId === undefined ? 0 : (events.get(monitNameId) ?? 0)
  )
  const services = repo.services(host.id).map((s) => ({ ...s, intervals: repo.downIntervals(host.id, s.name_id, span) }))
  const monitored = services.filter((s) => s.monitor !== MonitorState.Off)
  return {
    items: [
      monit,
      ...services.map((s) =>
        item(s.id, s.monitor !== MonitorState.Off, s.name, uptimeOf(span, now, s.intervals, unknown), events.get(s.name_id) ?? 0)
      )
    ],
    servicesUp: servicesUpOf(
      span,
      now,
      monitored.length,
      monitored.map((s) => s.intervals),
      unknown
    )
  }
}

/** An item with the figures behind its text, which the report's average needs. */
interface Measured {
  entry: UptimeItem
  figures: Uptime
}

/** `servicesUp` only for a host of the list (undefined leaves the field out). */
function item(id: number, active: boolean, name: string, figures: Uptime, events: number, servicesUp?: number | null): Measured {
  return {
    entry: {
      id,
      active: active ? 1 : 0,
      name,
      uptime: figures.uptime,
      downtime: downtimeText(figures.downtime),
      events,
      unknown: downtimeText(figures.unknown),
      downtimeseconds: figures.downtime,
      unknownseconds: figures.unknown,
      ...(servicesUp === undefined ? {} : { servicesup: servicesUp })
    },
    figures
  }
}

function report(range: Range, span: Span, now: number, serverDown: Downtime[], items: Measured[], servicesUp: number | null): UptimeReport {
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
    servicesup: servicesUp,
    serverdowntime: downtimeText(serverMinutes),
    serverdown
  }
}
