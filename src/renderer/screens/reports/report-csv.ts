// The events list and the uptime reports as CSV: the rows the screen's filters or range chose, with
// dates in ISO 8601 (UTC) so that any spreadsheet reads them the same way.
import { serviceTypeLabels } from '../../../shared/codes'
import { toCsv } from '../../../shared/csv'
import type { EventListEntry } from '../../../shared/api/events'
import type { UptimeItem, UptimeReport } from '../../../shared/api/uptime'
import { eventStates } from './event-state'

const isoDate = (unix: number) => new Date(unix * 1000).toISOString()

/** The notes' text goes in (issue 28), each "date user: text" on a line of its own. */
export function eventsCsv(events: readonly EventListEntry[]): string {
  return toCsv(
    ['Date (UTC)', 'Host', 'Service', 'Service type', 'State', 'Message', 'Active', 'Notes'],
    events.map((e) => [
      isoDate(e.date),
      e.hostname,
      e.servicename,
      serviceTypeLabels[e.servicetype] ?? String(e.servicetype),
      eventStates.find((s) => s.value === e.state)?.label ?? 'Unknown',
      e.message,
      e.active ? 'yes' : 'no',
      (e.notes ?? []).map((n) => `${isoDate(n.date)} ${n.uname}: ${n.message}`).join('\n')
    ])
  )
}

/**
 * One line per host or service, with each duration in words and in seconds. A host has two figures
 * (issue 28): its agent reporting (its silence is its downtime) and its services up (empty when it
 * monitors none); a service has its uptime, and each of its lines carries its host's two figures too, so
 * the per-host export says as much of the host as the list's.
 */
export function uptimeCsv(report: UptimeReport, what: 'Host' | 'Service'): string {
  const hosts = what === 'Host'
  const percent = (value: number | null | undefined) => (typeof value === 'number' ? value.toFixed(2) : '')
  const figures = hosts ? ['Agent reporting %', 'Services up %'] : ['Uptime %']
  const hostFigures = hosts ? [] : ['Host agent reporting %', 'Host services up %']
  return toCsv(
    [what, 'From (UTC)', 'To (UTC)', ...figures, 'Downtime', 'Downtime (s)', 'Unknown', 'Unknown (s)', 'Events', 'Watched', ...hostFigures],
    report.items.map((item: UptimeItem) => [
      item.name, isoDate(report.datefrom), isoDate(report.dateto), item.uptime.toFixed(2),
      ...(hosts ? [percent(item.servicesup)] : []),
      item.downtime, item.downtimeseconds, item.unknown, item.unknownseconds, item.events, item.active ? 'yes' : 'no',
      ...(hosts ? [] : [report.uptime.toFixed(2), percent(report.servicesup)])
    ]))
}
