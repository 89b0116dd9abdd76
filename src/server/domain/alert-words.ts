// What an alert says in words (issue 28), from the event's type and state as Monit names them
// (shared/codes eventClasses: Monit's own texts, agent protocol §4.6): "file watched does not exist",
// "process nginx resource limit succeeded", "web-1 stopped reporting". Pure: the templates build on it.
import type { AlertItem } from '../../shared/api/alerts'
import { eventClasses, serviceTypeLabels } from '../../shared/codes'

const classByName = new Map(eventClasses.map((c) => [c.name, c]))
const nameById = new Map(eventClasses.map((c) => [c.id, c.name]))

/** An event type's name as alerts give it ("Nonexist"), from its class bit. */
export function eventName(cls: number): string {
  return nameById.get(cls) ?? String(cls)
}

/** Prefixed to a reminder's summary and headline. */
export const REMINDER_PREFIX = 'Reminder: '

type Worded = Pick<AlertItem, 'serviceid' | 'host' | 'service' | 'servicetype' | 'event' | 'state'>

/** "file watched does not exist"; the host's own heartbeat events: "web-1 stopped reporting". */
export function describeAlert(a: Worded): string {
  if (a.serviceid === null && a.event === 'Heartbeat')
    return a.state === 'failed' ? `${a.host} stopped reporting` : `${a.host} reports again`
  const cls = classByName.get(a.event)
  const text =
    cls === undefined
      ? `${a.event} ${a.state}`
      : a.state === 'failed'
        ? cls.failed
        : a.state === 'changed'
          ? (cls.changed ?? cls.failed)
          : cls.succeeded
  const type = serviceTypeLabels[a.servicetype]
  return `${type === undefined ? 'service' : type.toLowerCase()} ${a.service} ${lowerFirst(text)}`
}

/** What happened where: "file watched does not exist on web-1", "web-1 stopped reporting". */
export function alertSentence(a: Worded): string {
  const what = describeAlert(a)
  return a.serviceid === null && a.event === 'Heartbeat' ? what : `${what} on ${a.host}`
}

/** One alert as a line: its sentence, a recovery's marked ("Recovered: process nginx exists on web-1"). */
export function alertHeadline(a: Worded): string {
  const sentence = alertSentence(a)
  return a.state === 'succeeded' && !(a.serviceid === null && a.event === 'Heartbeat') ? `Recovered: ${sentence}` : sentence
}

function lowerFirst(s: string): string {
  // "ICMP failed", "PID changed", "UID failed" keep their capitals
  return /^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s
}

/** Whether `name` is one of Monit's event types (a test notification's is not). */
export function isMonitEvent(name: string): boolean {
  return classByName.has(name)
}
