// LED and status text of a host, from its status, heartbeat and service counts (compat 6.1, 6.3).
import type { HostCategory } from '../../shared/api/status'
import { HostStatus, Led } from '../../shared/codes'

export interface ServiceCounts {
  total: number
  failed: number
  changed: number
  unmonitored: number
}

export interface HostCondition extends ServiceCounts {
  status: number
  heartbeat: number
}

export function countServices(services: readonly { led: number }[]): ServiceCounts {
  const counts = { total: services.length, failed: 0, changed: 0, unmonitored: 0 }
  for (const s of services) {
    if (s.led === Led.Red) counts.failed++
    else if (s.led === Led.Orange) counts.changed++
    else if (s.led === Led.Gray) counts.unmonitored++
  }
  return counts
}

/**
 * The host's category among the six of `status/hosts/summary` (shared/api/status). "services failed" means every
 * watched service is failing; "some services failed/unmonitored" means at least one failing,
 * changed or unmonitored service.
 */
export function hostCategory(h: HostCondition): HostCategory {
  if (h.status === HostStatus.Ignored) return 'ignored'
  if (h.status === HostStatus.Inactive) return 'inactive'
  if (h.heartbeat === 0) return 'failed'
  const watched = h.total - h.unmonitored
  if (watched > 0 && h.failed === watched) return 'services failed'
  if (h.failed + h.changed + h.unmonitored > 0) return 'some services failed/unmonitored'
  return 'ok'
}

export function hostLed(h: HostCondition): Led {
  switch (hostCategory(h)) {
    case 'ignored':
    case 'inactive':
      return Led.Gray
    case 'failed':
    case 'services failed':
      return Led.Red
    case 'some services failed/unmonitored':
      // A host whose every service is unmonitored shows gray: nothing is being watched.
      return h.total > 0 && h.unmonitored === h.total ? Led.Gray : Led.Orange
    case 'ok':
      return Led.Green
  }
}

export function hostStatusText(h: HostCondition): string {
  if (h.status === HostStatus.Ignored) return 'Ignored'
  if (h.status === HostStatus.Inactive) return 'Monit is not running'
  if (h.heartbeat === 0) return 'No report from Monit'
  const available = h.total - h.failed - h.changed - h.unmonitored
  return `${available} out of ${h.total} services are available`
}
