// Forecast events (issue 30 §3): a service whose resource is forecast to reach 100 % within the horizon
// setting fails with a Forecast event, and recovers once no resource of it is (domain/forecast.ts
// forecastTransition). Recorded like any event (event-recorder.ts), so alert rules choosing the Forecast
// type (or every type) send them, with recovery. Call inside the transaction that stored the forecasts.
import { EventClassId, EventState, HostStatus } from '../../shared/codes'
import { forecastTransition } from '../domain/forecast'
import { downtimeText } from '../domain/uptime'
import type { ResourceSeries } from '../store/forecasts'
import type { Store } from '../store/store'
import { EventRecorder } from './event-recorder'

/** The Forecast events of the services of `series` at `now`: how many were recorded. */
export function recordForecastEvents(store: Store, series: readonly ResourceSeries[], now: number): number {
  const services = new Map(series.filter((s) => s.host_status !== HostStatus.Ignored).map((s) => [s.service_id, s]))
  if (services.size === 0) return 0
  const horizon = store.serverSettings.forecastHorizonSec()
  const soonest = store.forecasts.soonestOf([...services.keys()])
  const recorder = new EventRecorder(store)
  let recorded = 0
  for (const [serviceId, s] of services) {
    const failing = store.events
      .classesOf(s.host_id, s.service)
      .some((c) => c.class === EventClassId.Forecast && c.state === EventState.Failed)
    const forecast = soonest.get(serviceId)
    const transition = forecastTransition(failing, forecast?.full_at, now, horizon)
    if (!transition) continue
    const message =
      transition === 'failed'
        ? `${forecast!.resource} full in ${downtimeText(forecast!.full_at - now)} at the ${forecast!.window_sec > 86_400 ? '7-day' : '24-hour'} trend (${forecast!.percent} % now, ${forecast!.slope} % a day)`
        : `no resource full within ${downtimeText(horizon)} at the current trend`
    const stored = recorder.record(s.host_id, {
      collectedSec: now,
      collectedUsec: 0,
      service: s.service,
      serviceType: s.service_type,
      id: EventClassId.Forecast,
      state: transition === 'failed' ? EventState.Failed : EventState.Succeeded,
      action: 1,
      message
    })
    if (stored !== undefined) recorded++
  }
  return recorded
}
