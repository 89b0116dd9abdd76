// How a resource forecast reads: "full in 2 d 5 h", "full now", "no clear trend", "not filling up", with
// what it is ("rootfs space", "memory"), how full it is now, and the history its trend was fitted over.
import type { ResourceForecast } from '../../api/forecasts'
import { formatAge } from '../../components/relative-time'

/** Below this confidence the server finds the trend too noisy to tell (src/shared/api/forecasts.ts). */
const CLEAR_TREND = 0.5
const DAY = 86_400

/** "full in 2 d 5 h" (as ages read: "40 min", "3 h 10 min"); "full now" once the time has come. */
export function fullIn(fullat: number, now: number): string {
  return fullat <= now ? 'full now' : `full in ${formatAge(now, fullat)}`
}

/** What the forecast says; without a time (fullat null), why not. */
export function forecastVerdict(forecast: ResourceForecast, now: number): string {
  if (forecast.fullat !== null) return fullIn(forecast.fullat, now)
  // Flat (slope 0.00 % a day): the server's confidence is nil, for no direction to agree on, but it is clear.
  if (forecast.slope === 0) return 'not filling up'
  if (forecast.confidence < CLEAR_TREND) return 'no clear trend'
  return forecast.slope > 0 ? 'not full within a year' : 'not filling up'
}

/** Red within a day, orange within a week; nothing to colour without a time. */
export function urgencyColor(fullat: number | null, now: number): string | undefined {
  if (fullat === null) return undefined
  if (fullat - now <= DAY) return 'red'
  return fullat - now <= 7 * DAY ? 'orange' : undefined
}

/** "rootfs space", "rootfs inodes"; memory and swap are the host's own (its system service bears its name). */
export function resourceLabel(forecast: ResourceForecast): string {
  return forecast.resource === 'space' || forecast.resource === 'inodes' ? `${forecast.service} ${forecast.resource}` : forecast.resource
}

/** "82.5 % now", "7-day trend", and how sure the trend is when there is one: "confidence 87 %". */
export function forecastDetails(forecast: ResourceForecast): string[] {
  const details = [`${forecast.percent.toLocaleString(undefined, { maximumFractionDigits: 1 })} % now`, trendWindow(forecast.window)]
  if (forecast.confidence >= CLEAR_TREND) details.push(`confidence ${Math.round(forecast.confidence * 100)} %`)
  return details
}

/** "7-day trend", "24-hour trend". */
export function trendWindow(seconds: number): string {
  return seconds >= 2 * DAY ? `${Math.round(seconds / DAY)}-day trend` : `${Math.round(seconds / 3600)}-hour trend`
}

/** Soonest full first; those without a time after, in the server's order. */
export function bySoonest(a: ResourceForecast, b: ResourceForecast): number {
  if (a.fullat === null || b.fullat === null) return Number(a.fullat === null) - Number(b.fullat === null)
  return a.fullat - b.fullat
}
