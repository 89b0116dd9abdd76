// How a host's state columns change, whatever changes them: a report, Monit's orderly stop, silence past
// the heartbeat deadline, an administrator setting the status or skew (spec: States and transitions).
// Pure: the collector (collector/ingest.ts), the watchdog (jobs/heartbeat-watchdog.ts) and
// admin/hosts/update (api/admin-hosts.ts) write the columns it returns.
import { Heartbeat, HostStatus } from '../../shared/codes'
import { heartbeatDeadlineMs } from './heartbeat'
import { hostLed, hostStatusText, type ServiceCounts } from './host-state'

/** The host columns a transition reads. */
export interface HostStateRow {
  status: number
  heartbeat: number
  /** Unix seconds; null while the host is neither stopped nor silent. */
  inactive_since: number | null
  /** Unix seconds of the last report */
  last_modified: number
  poll: number
  skew: number | null
  services_total: number
  services_failed: number
  services_changed: number
  services_unmonitored: number
}

/** A message from the agent (`stop`: it reports Monit's orderly shutdown), with the poll and service counts it brings. */
export interface ReportCause {
  kind: 'report' | 'stop'
  nowMs: number
  poll: number
  services: ServiceCounts
}
/** No message by the heartbeat deadline. */
export interface SilenceCause {
  kind: 'silence'
}
/** admin/hosts/update: the status asked for and the skew after the edit. */
export interface AdministratorCause {
  kind: 'administrator'
  nowMs: number
  status: HostStatus
  skew: number | null
}
export type HostCause = ReportCause | SilenceCause | AdministratorCause

export interface HostStateColumns {
  status: number
  heartbeat: number
  inactive_since: number | null
  heartbeat_deadline_ms: number | null
  led: number
  status_text: string
}

/** The columns `cause` changes: all of them on a report, all but the status on silence, any on an administrator's edit. */
export function nextHostState(row: HostStateRow, cause: ReportCause): HostStateColumns
export function nextHostState(row: HostStateRow, cause: SilenceCause): Omit<HostStateColumns, 'status'>
export function nextHostState(row: HostStateRow, cause: HostCause): Partial<HostStateColumns>
export function nextHostState(row: HostStateRow, cause: HostCause): Partial<HostStateColumns> {
  switch (cause.kind) {
    case 'report':
    case 'stop': {
      // Ignored stays ignored whatever the agent says; events are suppressed for it.
      const status =
        row.status === HostStatus.Ignored ? HostStatus.Ignored : cause.kind === 'stop' ? HostStatus.Inactive : HostStatus.Active
      const now = Math.floor(cause.nowMs / 1000)
      return {
        status,
        heartbeat: Heartbeat.Ok,
        inactive_since: inactiveSince(row, status, Heartbeat.Ok, now),
        heartbeat_deadline_ms: status === HostStatus.Active ? heartbeatDeadlineMs(cause.nowMs, cause.poll, row.skew) : null,
        ...looks(status, Heartbeat.Ok, cause.services)
      }
    }
    case 'silence':
      return {
        heartbeat: Heartbeat.Dead,
        heartbeat_deadline_ms: null,
        // A silent host counts as inactive (spec: admin/hosts/delete by inactivity) from its last report.
        inactive_since: inactiveSince(row, row.status, Heartbeat.Dead, row.last_modified),
        ...looks(row.status, Heartbeat.Dead, storedCounts(row))
      }
    case 'administrator':
      return administratorChange(row, cause)
  }
}

function administratorChange(row: HostStateRow, cause: AdministratorCause): Partial<HostStateColumns> {
  const statusChanged = cause.status !== row.status
  const changes: Partial<HostStateColumns> = statusChanged
    ? {
        status: cause.status,
        inactive_since: inactiveSince(row, cause.status, row.heartbeat, Math.floor(cause.nowMs / 1000)),
        heartbeat_deadline_ms: null,
        ...looks(cause.status, row.heartbeat, storedCounts(row))
      }
    : {}
  if (cause.status === HostStatus.Active && row.heartbeat === Heartbeat.Ok) {
    // Watch the heartbeat from now when the host is made active; a new skew moves the running deadline.
    if (statusChanged) changes.heartbeat_deadline_ms = heartbeatDeadlineMs(cause.nowMs, row.poll, cause.skew)
    else if (cause.skew !== row.skew) changes.heartbeat_deadline_ms = heartbeatDeadlineMs(row.last_modified * 1000, row.poll, cause.skew)
  }
  return changes
}

/**
 * A host is inactive while stopped (status Inactive) or silent (heartbeat dead): the time it became so
 * is kept while it stays so, and `start` when it becomes so now. Ignored keeps whatever it had.
 */
function inactiveSince(row: HostStateRow, status: number, heartbeat: number, start: number): number | null {
  if (status === HostStatus.Ignored) return row.inactive_since
  if (status !== HostStatus.Inactive && heartbeat !== Heartbeat.Dead) return null
  const wasInactive = row.status === HostStatus.Inactive || row.heartbeat === Heartbeat.Dead
  return wasInactive ? (row.inactive_since ?? start) : start
}

function looks(status: number, heartbeat: number, services: ServiceCounts): { led: number; status_text: string } {
  const condition = { status, heartbeat, ...services }
  return { led: hostLed(condition), status_text: hostStatusText(condition) }
}

export function storedCounts(row: HostStateRow): ServiceCounts {
  return { total: row.services_total, failed: row.services_failed, changed: row.services_changed, unmonitored: row.services_unmonitored }
}
