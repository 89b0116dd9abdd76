// The delivery job's policies (issue 13), pure: what one notification says, when a failed send is tried
// again or given up, and when an alert still failing is due for a reminder. The job (jobs/alert-delivery.ts)
// applies them to the outbox; nothing here reads the clock or the database.
import type { AlertItem, AlertNotification, AlertState } from '../../shared/api/alerts'
import { REMINDER_PREFIX } from './alert-words'

/** One outbox row as the policies see it. */
export interface OutboxEntry {
  eventId: number | null
  kind: 'alert' | 'recovery' | 'reminder'
  item: AlertItem
}

/** A storm is sent as several notifications of at most this many alerts: each send stays a bounded piece of work. */
export const MAX_ALERTS_PER_NOTIFICATION = 1000

/** Retries: 30 s, 1 min, 2 min … doubling up to 30 min between attempts. */
const FIRST_RETRY_SEC = 30
const MAX_RETRY_SEC = 30 * 60
/** Given up (status failed) after this many attempts, or when a retry would fall past this age. */
export const MAX_ATTEMPTS = 10
export const MAX_AGE_SEC = 24 * 3600

/**
 * The notification of a group of outbox rows. Two rules routing the same event to the same channel make
 * two rows, but the channel hears of that event once. Links become absolute on `consoleUrl`.
 */
export function buildNotification(id: string, entries: readonly OutboxEntry[], consoleUrl: string): AlertNotification {
  const seen = new Set<string>()
  const alerts: AlertItem[] = []
  const absolute = linksOn(consoleUrl)
  for (const entry of entries) {
    const key = entry.eventId === null ? undefined : `${entry.eventId}:${entry.kind}`
    if (key !== undefined) {
      if (seen.has(key)) continue
      seen.add(key)
    }
    alerts.push({ ...entry.item, link: absolute(entry.item.link) })
  }
  const reminder = entries.length > 0 && entries.every((e) => e.kind === 'reminder')
  return { id, summary: (reminder ? REMINDER_PREFIX : '') + summarize(alerts), link: notificationLink(alerts, consoleUrl), alerts }
}

/** "labprog failed on web-1", "web-1 stopped reporting", "5 services failed, 1 recovered on 3 hosts". */
export function summarize(alerts: readonly AlertItem[]): string {
  if (alerts.length === 0) return 'No alerts'
  if (alerts.length === 1) {
    const [a] = alerts
    if (a.serviceid === null)
      return `${a.host} ${a.state === 'failed' ? 'stopped reporting' : a.state === 'succeeded' ? 'reports again' : `${a.event} changed`}`
    return `${a.service} ${stateWord[a.state]} on ${a.host}`
  }
  const noun = alerts.every((a) => a.serviceid !== null) ? 'service' : 'alert'
  const parts = (['failed', 'changed', 'succeeded'] as const)
    .map((state) => [state, alerts.filter((a) => a.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n], i) => (i === 0 ? `${n} ${plural(noun, n)} ${stateWord[state]}` : `${n} ${stateWord[state]}`))
  const hosts = new Set(alerts.map((a) => a.hostid))
  const where = hosts.size === 1 ? alerts[0].host : `${hosts.size} hosts`
  return `${parts.join(', ')} on ${where}`
}

const stateWord: Record<AlertState, string> = { failed: 'failed', changed: 'changed', succeeded: 'recovered' }

function plural(noun: string, n: number): string {
  return n === 1 ? noun : `${noun}s`
}

/** An item's console-relative link ("#/events/12") on the console's base URL; absolute links stay. */
export function absoluteLink(consoleUrl: string, link: string): string {
  return linksOn(consoleUrl)(link)
}

/** absoluteLink for many links on one base: the base is parsed once (a storm has thousands of links). */
function linksOn(consoleUrl: string): (link: string) => string {
  let base: URL | undefined
  try {
    base = new URL(consoleUrl.endsWith('/') ? consoleUrl : `${consoleUrl}/`)
  } catch {
    return (link) => link
  }
  // A fragment on a base without one: the common case, without a URL parse per link.
  const prefix = base.hash === '' ? base.toString() : undefined
  return (link) => {
    if (prefix !== undefined && link.startsWith('#')) return prefix + link
    try {
      return new URL(link, base).toString()
    } catch {
      return link
    }
  }
}

/** One alert: its event; one host: the host's page; else the event list. */
function notificationLink(alerts: readonly AlertItem[], consoleUrl: string): string {
  if (alerts.length === 1) return alerts[0].link
  const hosts = new Set(alerts.map((a) => a.hostid))
  return absoluteLink(consoleUrl, hosts.size === 1 ? `#/hosts/${alerts[0].hostid}` : '#/events')
}

/** What follows a failed attempt: another at `at` (unix seconds), or giving up. */
export type AfterFailure = { retryAt: number } | { giveUp: true }

/**
 * After `attempts` failed attempts (this one included) of a notification created at `createdAt`. A
 * receiver that said when to come back (`retryAfterSec`, rate limits) is not tried before then.
 */
export function afterFailure(attempts: number, createdAt: number, now: number, retryAfterSec?: number): AfterFailure {
  if (attempts >= MAX_ATTEMPTS) return { giveUp: true }
  const retryAt = now + Math.max(retryDelaySec(attempts), Math.ceil(retryAfterSec ?? 0))
  return retryAt - createdAt > MAX_AGE_SEC ? { giveUp: true } : { retryAt }
}

/** The wait after the `attempts`-th failed attempt: 30 s, 60 s, 120 s … capped. */
export function retryDelaySec(attempts: number): number {
  return Math.min(MAX_RETRY_SEC, FIRST_RETRY_SEC * 2 ** Math.max(0, attempts - 1))
}

/** A failure still active is reminded of `reminderMin` minutes after the last notification of it (never when 0). */
export function reminderDueAt(lastNotifiedAt: number, reminderMin: number): number {
  return reminderMin > 0 ? lastNotifiedAt + reminderMin * 60 : Infinity
}
