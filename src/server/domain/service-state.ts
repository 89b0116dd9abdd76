// LED and status text of one service, derived the way Monit renders a state (agent protocol §4.7), except
// that a failure always wins: Monit keeps a service whose start "succeeds" but whose process never appears
// in state initializing while it reports "failed to start" every cycle (issue 28), and shows it as
// "Initializing"; we show the failure.
import { actionLabels, eventClasses, Led, MonitorState } from '../../shared/codes'

export interface ServiceCondition {
  monitor: number
  status: number
  statusHint: number
  pendingAction: number
  /** Event classes whose newest event of this service failed (`event_state`); 0 when not known. */
  activeErrors: number
}

/**
 * The event classes the service fails in. Once Monit has checked the service, its status bits are its
 * verdict, fresher than any stored event (a queued event may arrive late, and a recovery during a restart
 * is never sent). While it initializes, it has no verdict yet: the failures its events reported still stand.
 */
function failingClasses(s: ServiceCondition): number {
  if (s.monitor === MonitorState.Off) return 0
  return s.monitor & MonitorState.Initializing ? s.status | s.activeErrors : s.status
}

export function serviceLed(s: ServiceCondition): Led {
  if (s.monitor === MonitorState.Off) return Led.Gray
  const failing = failingClasses(s)
  if (failing === 0) return s.monitor & MonitorState.Initializing ? Led.Gray : Led.Green
  // Only "changed"-type conditions (status_hint set for every failing bit) are a warning, not a failure.
  return (failing & ~s.statusHint) === 0 ? Led.Orange : Led.Red
}

export function serviceStatusText(s: ServiceCondition): string {
  const text = baseStatusText(s)
  const pending = actionLabels[s.pendingAction]
  return s.pendingAction !== 0 && pending ? `${text} - ${pending} pending` : text
}

function baseStatusText(s: ServiceCondition): string {
  if (s.monitor === MonitorState.Off) return 'Not monitored'
  const failing = failingClasses(s)
  if (failing !== 0) return failureText(failing, s.statusHint)
  if (s.monitor & MonitorState.Waiting) return 'Waiting'
  if (s.monitor & MonitorState.Initializing) return 'Initializing'
  return 'OK'
}

function failureText(failing: number, statusHint: number): string {
  const parts: string[] = []
  for (const c of eventClasses) {
    if ((failing & c.id) === 0) continue
    parts.push(statusHint & c.id ? (c.changed ?? c.failed) : c.failed)
  }
  return parts.length > 0 ? parts.join(' | ') : 'Failed'
}
