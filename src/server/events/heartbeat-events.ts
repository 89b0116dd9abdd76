// The server's own events for a host that stops or resumes reporting (event class Heartbeat, which
// Monit reserves and never posts).
import { EventClassId, EventState, ServiceType } from '../../shared/codes'
import type { MonitEvent } from '../monit/message'

export const HEARTBEAT_SERVICE = 'Monit'

export function heartbeatLostEvent(atMs: number, silentForSec: number): MonitEvent {
  return heartbeatEvent(atMs, EventState.Failed, `No report from Monit for ${silentForSec} seconds`)
}

export function heartbeatBackEvent(atMs: number): MonitEvent {
  return heartbeatEvent(atMs, EventState.Succeeded, 'Monit reports again')
}

function heartbeatEvent(atMs: number, state: number, message: string): MonitEvent {
  return {
    collectedSec: Math.floor(atMs / 1000),
    collectedUsec: (atMs % 1000) * 1000,
    service: HEARTBEAT_SERVICE,
    serviceType: ServiceType.System,
    id: EventClassId.Heartbeat,
    state,
    action: 1,
    message
  }
}
