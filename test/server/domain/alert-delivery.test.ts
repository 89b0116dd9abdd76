import { describe, expect, it } from 'vitest'
import {
  absoluteLink,
  afterFailure,
  buildNotification,
  MAX_AGE_SEC,
  MAX_ATTEMPTS,
  reminderDueAt,
  retryDelaySec,
  summarize
} from '../../../src/server/domain/alert-delivery'
import type { AlertItem } from '../../../src/shared/api/alerts'

const alert = (hostid: number, service: string, state: AlertItem['state'] = 'failed', serviceid: number | null = 1): AlertItem => ({
  hostid,
  host: `web-${hostid}`,
  serviceid,
  service,
  servicetype: 3,
  event: serviceid === null ? 'Heartbeat' : 'Nonexist',
  state,
  message: 'm',
  date: 0,
  link: `#/events/${hostid}${service}`
})

describe('summary', () => {
  it('names one alert', () => {
    expect(summarize([alert(1, 'labprog')])).toBe('labprog failed on web-1')
    expect(summarize([alert(1, 'labprog', 'succeeded')])).toBe('labprog recovered on web-1')
    expect(summarize([alert(1, 'web-1', 'failed', null)])).toBe('web-1 stopped reporting')
    expect(summarize([alert(1, 'web-1', 'succeeded', null)])).toBe('web-1 reports again')
  })

  it('counts several by state and host', () => {
    const five = [alert(1, 'a'), alert(1, 'b'), alert(2, 'a'), alert(3, 'a'), alert(3, 'b')]
    expect(summarize(five)).toBe('5 services failed on 3 hosts')
    expect(summarize([alert(1, 'a'), alert(1, 'b')])).toBe('2 services failed on web-1')
    expect(summarize([alert(1, 'a'), alert(2, 'b', 'succeeded'), alert(2, 'c', 'changed')])).toBe(
      '1 service failed, 1 changed, 1 recovered on 2 hosts'
    )
    expect(summarize([alert(1, 'web-1', 'failed', null), alert(2, 'a')])).toBe('2 alerts failed on 2 hosts')
  })
})

describe('notification', () => {
  it('lists an event once per kind, makes links absolute and marks reminders', () => {
    const a = alert(1, 'nginx')
    const n = buildNotification(
      'uid-1',
      [
        { eventId: 7, kind: 'alert', item: a },
        { eventId: 7, kind: 'alert', item: a },
        { eventId: 8, kind: 'alert', item: alert(1, 'mysql') }
      ],
      'https://mon.example/overseer'
    )
    expect(n.alerts.map((x) => x.service)).toEqual(['nginx', 'mysql'])
    expect(n.alerts[0].link).toBe('https://mon.example/overseer/#/events/1nginx')
    expect(n.link).toBe('https://mon.example/overseer/#/hosts/1')
    const reminder = buildNotification('uid-2', [{ eventId: 7, kind: 'reminder', item: a }], 'http://h:8080')
    expect(reminder.summary).toBe('Reminder: nginx failed on web-1')
    expect(reminder.link).toBe('http://h:8080/#/events/1nginx')
  })

  it('keeps absolute links', () => {
    expect(absoluteLink('http://h:8080', 'https://elsewhere/x')).toBe('https://elsewhere/x')
  })
})

describe('retries', () => {
  it('doubles from 30 s up to 30 min', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelaySec)).toEqual([30, 60, 120, 240, 480, 960, 1800, 1800, 1800])
  })

  it('gives up after the attempts bound or past the age bound', () => {
    expect(afterFailure(1, 1000, 1000)).toEqual({ retryAt: 1030 })
    expect(afterFailure(MAX_ATTEMPTS, 1000, 1000)).toEqual({ giveUp: true })
    expect(afterFailure(3, 1000, 1000 + MAX_AGE_SEC - 120)).toEqual({ retryAt: 1000 + MAX_AGE_SEC })
    expect(afterFailure(3, 1000, 1000 + MAX_AGE_SEC - 119)).toEqual({ giveUp: true })
  })

  it('waits as long as a receiver asked, never less than the backoff', () => {
    expect(afterFailure(1, 1000, 1000, 600)).toEqual({ retryAt: 1600 })
    expect(afterFailure(1, 1000, 1000, 1.5)).toEqual({ retryAt: 1030 })
    expect(afterFailure(1, 1000, 1000, MAX_AGE_SEC + 1)).toEqual({ giveUp: true })
  })
})

describe('reminders', () => {
  it('are due reminder minutes after the last notification, never when off', () => {
    expect(reminderDueAt(1000, 10)).toBe(1600)
    expect(reminderDueAt(1000, 0)).toBe(Infinity)
  })
})
