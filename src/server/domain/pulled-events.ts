// The events a pulled agent's status implies (issue 30 §1). A pushing Monit agent sends an event when a
// check fails or recovers; read from its httpd, only the services' status bits are there. Between two
// polls, each event class bit a service's status gained is a failure of that class, and each it lost a
// recovery, in Monit's own words (shared/codes eventClasses). A service not monitored has no status.
import { eventClasses, EventState } from '../../shared/codes'

export interface PolledService {
  name: string
  /** Monit service type 0–8. */
  type: number
  /** Bitmask of failing event classes. */
  status: number
  /** Bitmask: 0 off, 1 on, 2 initializing, 4 waiting. */
  monitor: number
  collectedSec: number
  collectedUsec: number
}

export interface ImpliedEvent {
  service: string
  serviceType: number
  /** Event class (its bit). */
  cls: number
  state: number
  message: string
  collectedSec: number
  collectedUsec: number
}

/** Each service's status bits at the previous poll, by name; monitored services only. */
export type PollBaseline = ReadonlyMap<string, number>

export function baselineOf(services: readonly PolledService[]): Map<string, number> {
  return new Map(services.filter((s) => s.monitor === 1).map((s) => [s.name, s.status]))
}

/** The events between the baseline and `services` (a service new to the baseline, or unmonitored, implies none). */
export function impliedEvents(before: PollBaseline, services: readonly PolledService[]): ImpliedEvent[] {
  const events: ImpliedEvent[] = []
  for (const s of services) {
    const was = before.get(s.name)
    if (was === undefined || s.monitor !== 1 || was === s.status) continue
    for (const c of eventClasses) {
      const gained = (s.status & c.id) !== 0 && (was & c.id) === 0
      const lost = (was & c.id) !== 0 && (s.status & c.id) === 0
      if (!gained && !lost) continue
      events.push({
        service: s.name,
        serviceType: s.type,
        cls: c.id,
        state: gained ? EventState.Failed : EventState.Succeeded,
        message: gained ? c.failed : c.succeeded,
        collectedSec: s.collectedSec,
        collectedUsec: s.collectedUsec
      })
    }
  }
  return events
}
