// LED and status text of one service, derived the way Monit renders a state (agent protocol §4.7).
import { actionLabels, eventClasses, Led, MonitorState } from '../../shared/codes'

export interface ServiceCondition {
  monitor: number
  status: number
  statusHint: number
  pendingAction: number
}

export function serviceLed(s: ServiceCondition): Led {
  if (s.monitor === MonitorState.Off || s.monitor & MonitorState.Initializing) return Led.Gray
  if (s.status === 0) return Led.Green
  // Only "changed"-type conditions (status_hint set for every failing bit) are a warning, not a failure.
  return (s.status & ~s.statusHint) === 0 ? Led.Orange : Led.Red
}

export function serviceStatusText(s: ServiceCondition): string {
  const text = baseStatusText(s)
  const pending = actionLabels[s.pendingAction]
  return s.pendingAction !== 0 && pending ? `${text} - ${pending} pending` : text
}

function baseStatusText(s: ServiceCondition): string {
  if (s.monitor === MonitorState.Off) return 'Not monitored'
  if (s.monitor & MonitorState.Waiting) return 'Waiting'
  if (s.monitor & MonitorState.Initializing) return 'Initializing'
  if (s.status === 0) return 'OK'
  const parts: string[] = []
  for (const c of eventClasses) {
    if ((s.status & c.id) === 0) continue
    parts.push(s.statusHint & c.id ? (c.changed ?? c.failed) : c.failed)
  }
  return parts.length > 0 ? parts.join(' | ') : 'Failed'
}
