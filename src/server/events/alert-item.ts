// An outbox row's alert item (AlertItem, frozen as JSON with the row): made the same way for an event
// matched as it is stored (alert-enqueuer.ts) and for a failure already active (failures-in-scope.ts).
import type { AlertItem } from '../../shared/api/alerts'
import { EventClassId } from '../../shared/codes'
import { alertState } from '../domain/alert-rules'
import { eventName } from '../domain/alert-words'
import type { AlertMatchingRepository } from '../store/alert-matching'

export interface ItemSource {
  hostId: number
  hostname: string
  eventId: number
  service: string
  serviceType: number
  /** Event class bit */
  cls: number
  /** Monit's state */
  state: number
  message: string
  /** Agent time, unix seconds */
  date: number
}

export function alertItem(s: ItemSource, matching: AlertMatchingRepository): AlertItem {
  return {
    hostid: s.hostId,
    host: s.hostname,
    serviceid: s.cls === EventClassId.Heartbeat ? null : (matching.serviceId(s.hostId, s.service) ?? null),
    service: s.service,
    servicetype: s.serviceType,
    event: eventName(s.cls),
    state: alertState(s.state),
    message: s.message,
    date: s.date,
    link: `#/events/${s.eventId}`
  }
}
