// Turns a server alert into what a native notification shows and where clicking it leads.
import type { DesktopAlert, DesktopNotification } from '../shared/desktop-api'
import { eventsUrl, eventUrl, homeUrl } from './console-routes'

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
  const title = alert.kind === 'host-dead' ? `${alert.hostname}: no report from Monit` : `${alert.hostname}: ${alert.service}`
  return { title, body: alert.message, url: eventUrl(origin, alert.eventId) }
}

export function heldBackNotification(count: number, origin: string): NotificationContent {
  return {
    title: `${count} more ${count === 1 ? 'alert' : 'alerts'}`,
    body: 'Held back to avoid a flood of notifications. Open the events list to see them.',
    url: eventsUrl(origin)
  }
}

/**
 * A `desktop` alert channel's notification (issue 13). Its link opens in the console window only when
 * it is a page of this server: a console route, or a URL on the window's origin; else the home page.
 */
export function channelNotification(n: DesktopNotification, origin: string): NotificationContent {
  const url = n.link.startsWith('#/')
    ? `${origin}/${n.link}`
    : n.link.startsWith('/#/')
      ? `${origin}${n.link}`
      : n.link.startsWith(`${origin}/`)
        ? n.link
        : homeUrl(origin)
  return { title: n.title, body: n.body, url }
}
