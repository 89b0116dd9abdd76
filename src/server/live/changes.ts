// Builds live changes from what the collector and the watchdog already hold in memory.
import type { LiveChange, LiveEvent } from '../../shared/live'
import type { MonitEvent } from '../monit/message'

export function liveEvent(id: number, e: MonitEvent): LiveEvent {
  return {
    id,
    service: e.service,
    serviceType: e.serviceType,
    eventClass: e.id,
    state: e.state,
    action: e.action,
    message: e.message,
    date: e.collectedSec
  }
}

export function eventChange(hostId: number, hostname: string, id: number, e: MonitEvent): LiveChange {
  return { kind: 'event', hostId, hostname, event: liveEvent(id, e) }
}
