import { describe, expect, it } from 'vitest'
import { alertNotification, alertSubject, heldBackNotification } from '../../src/main/alert-notification'
import { NotificationThrottle } from '../../src/main/notification-throttle'
import type { DesktopAlert } from '../../src/shared/desktop-api'

const policy = { perSubjectMs: 300_000, burst: 3, windowMs: 60_000 }

describe('notification throttle', () => {
  it('lets a flapping service notify once per quiet period', () => {
    const throttle = new NotificationThrottle(policy)
    expect(throttle.admit('web/nginx', 0)).toBe(true)
    for (let t = 10_000; t < 300_000; t += 10_000) expect(throttle.admit('web/nginx', t)).toBe(false)
    expect(throttle.takeHeldBack()).toBe(29)
    expect(throttle.takeHeldBack()).toBe(0)
    expect(throttle.admit('web/nginx', 300_000)).toBe(true)
  })

  it('caps a burst of different subjects, then lets more through as the window slides', () => {
    const throttle = new NotificationThrottle(policy)
    const shown = Array.from({ length: 10 }, (_, i) => throttle.admit(`host-${i}`, i * 1_000))
    expect(shown).toEqual([true, true, true, false, false, false, false, false, false, false])
    expect(throttle.takeHeldBack()).toBe(7)
    expect(throttle.admit('host-11', 59_999)).toBe(false) // the first one is still in the window
    expect(throttle.admit('host-12', 60_000)).toBe(true)
  })

  it('does not let held-back subjects jam their own later notifications', () => {
    const throttle = new NotificationThrottle(policy)
    for (let i = 0; i < 4; i++) throttle.admit(`host-${i}`, 0)
    expect(throttle.admit('host-3', 61_000)).toBe(true) // it was never shown, so it is not in its quiet period
  })
})

describe('alert notifications', () => {
  const alert: DesktopAlert = {
    kind: 'error',
    eventId: 42,
    hostId: 7,
    hostname: 'web1',
    service: 'nginx',
    eventClass: 512,
    message: 'process is not running',
    date: 1795300500
  }
  const origin = 'http://127.0.0.1:8080'

  it('names the host and service, and opens the event', () => {
    expect(alertNotification(alert, origin)).toEqual({ title: 'web1: nginx', body: 'process is not running', url: `${origin}/#/events/42` })
    expect(
      alertNotification({ ...alert, kind: 'host-dead', service: 'web1', message: 'No report from Monit for 90 seconds' }, origin)
    ).toEqual({ title: 'web1: no report from Monit', body: 'No report from Monit for 90 seconds', url: `${origin}/#/events/42` })
    expect(heldBackNotification(3, origin)).toMatchObject({ title: '3 more alerts', url: `${origin}/#/events` })
  })

  it('throttles a check as one subject, and hosts going dead per host', () => {
    expect(alertSubject(alert)).toBe(alertSubject({ ...alert, eventId: 43, message: 'other' }))
    expect(alertSubject(alert)).not.toBe(alertSubject({ ...alert, eventClass: 32 }))
    expect(alertSubject(alert)).not.toBe(alertSubject({ ...alert, hostId: 8 }))
    expect(alertSubject({ ...alert, kind: 'host-dead' })).toBe('host:7')
  })
})
