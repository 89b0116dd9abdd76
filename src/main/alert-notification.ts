// Turns a server alert into what a native notification shows and where clicking it leads.
import type { DesktopAlert } from '../shared/desktop-api'
import { eventsUrl, eventUrl } from './console-routes'

export interface NotificationContent {
  title: string
  body: string
  /** Opened in the console window when the notification is clicked. */
  url: string
}

/** Alerts about the same thing share a subject, so a flapping check is throttled as one. */
export function alertSubject(alert: DesktopAlert): string {
  return alert.kind === 'host-dead' ? `host:${alert.hostId}` : `service:${alert.hostId}:${alert.service}:${alert.eventClass}`
}

export function alertNotification(alert: DesktopAlert, origin: string): NotificationContent {
  const title = alert.kind === 'host-dead'
    ? `${alert.hostname}: no report from Monit`
    : `${alert.hostname}: ${alert.service}`
  return { title, body: alert.message, url: eventUrl(origin, alert.eventId) }
}

export function heldBackNotification(count: number, origin: string): NotificationContent {
  return {
    title: `${count} more ${count === 1 ? 'alert' : 'alerts'}`,
    body: 'Held back to avoid a flood of notifications. Open the events list to see them.',
    url: eventsUrl(origin)
  }
}
