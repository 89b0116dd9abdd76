import { describe, expect, it } from 'vitest'
import { Heartbeat, HostStatus, Led } from '../../../src/shared/codes'
import { nextHostState, type HostStateRow } from '../../../src/server/domain/host-transition'

const T = 1_700_000_000 // unix seconds
const NOW_MS = (T + 100) * 1000
const NOW = T + 100
const services = { total: 4, failed: 1, changed: 0, unmonitored: 0 }
/** Active, reporting every 30 s, last report at T. */
const active: HostStateRow = {
  status: HostStatus.Active,
  heartbeat: Heartbeat.Ok,
  inactive_since: null,
  last_modified: T,
  poll: 30,
  skew: 3,
  services_total: 4,
  services_failed: 0,
  services_changed: 0,
  services_unmonitored: 0
}
const stopped: HostStateRow = { ...active, status: HostStatus.Inactive, inactive_since: T - 50 }
const silent: HostStateRow = { ...active, heartbeat: Heartbeat.Dead, inactive_since: T }
const ignored: HostStateRow = { ...active, status: HostStatus.Ignored, inactive_since: T - 7 }

describe('nextHostState', () => {
  describe('a report', () => {
    it('makes a host active and reporting, with a heartbeat deadline of skew × poll from now', () => {
      expect(nextHostState(stopped, { kind: 'report', nowMs: NOW_MS, poll: 60, services })).toEqual({
        status: HostStatus.Active,
        heartbeat: Heartbeat.Ok,
        inactive_since: null,
        heartbeat_deadline_ms: NOW_MS + 3 * 60_000,
        led: Led.Orange,
        status_text: '3 out of 4 services are available'
      })
      expect(nextHostState(silent, { kind: 'report', nowMs: NOW_MS, poll: 30, services })).toMatchObject({
        heartbeat: Heartbeat.Ok,
        inactive_since: null
      })
    })

    it('leaves an ignored host ignored, unwatched and inactive since when it was', () => {
      expect(nextHostState(ignored, { kind: 'report', nowMs: NOW_MS, poll: 30, services })).toEqual({
        status: HostStatus.Ignored,
        heartbeat: Heartbeat.Ok,
        inactive_since: T - 7,
        heartbeat_deadline_ms: null,
        led: Led.Gray,
        status_text: 'Ignored'
      })
    })

    it('has no deadline without a poll cycle', () => {
      expect(nextHostState(active, { kind: 'report', nowMs: NOW_MS, poll: 0, services }).heartbeat_deadline_ms).toBeNull()
    })
  })

  describe("Monit's orderly stop", () => {
    it('makes an active host inactive from now, unwatched', () => {
      expect(nextHostState(active, { kind: 'stop', nowMs: NOW_MS, poll: 30, services })).toEqual({
        status: HostStatus.Inactive,
        heartbeat: Heartbeat.Ok,
        inactive_since: NOW,
        heartbeat_deadline_ms: null,
        led: Led.Gray,
        status_text: 'Monit is not running'
      })
    })

    it('keeps the start of an inactivity that had begun', () => {
      expect(nextHostState(stopped, { kind: 'stop', nowMs: NOW_MS, poll: 30, services }).inactive_since).toBe(T - 50)
    })
  })

  describe('silence', () => {
    it('kills the heartbeat; the host is inactive from its last report; the status stays', () => {
      expect(nextHostState({ ...active, services_failed: 1 }, { kind: 'silence' })).toEqual({
        heartbeat: Heartbeat.Dead,
        heartbeat_deadline_ms: null,
        inactive_since: T,
        led: Led.Red,
        status_text: 'No report from Monit'
      })
    })
  })

  describe("an administrator's change", () => {
    const admin = (status: HostStatus, skew: number | null = 3) => ({ kind: 'administrator' as const, nowMs: NOW_MS, status, skew })

    it('changes nothing when neither status nor skew changes', () => {
      expect(nextHostState(active, admin(HostStatus.Active))).toEqual({})
    })

    it('moves the running deadline with a new skew, counted from the last report', () => {
      expect(nextHostState(active, admin(HostStatus.Active, 5))).toEqual({ heartbeat_deadline_ms: (T + 5 * 30) * 1000 })
    })

    it('watches a reporting host made active from now', () => {
      expect(nextHostState(ignored, admin(HostStatus.Active))).toEqual({
        status: HostStatus.Active,
        inactive_since: null,
        heartbeat_deadline_ms: NOW_MS + 3 * 30_000,
        led: Led.Green,
        status_text: '4 out of 4 services are available'
      })
    })

    it('keeps a silent host inactive since its silence began, unwatched until it reports', () => {
      expect(nextHostState({ ...silent, status: HostStatus.Ignored }, admin(HostStatus.Active))).toEqual({
        status: HostStatus.Active,
        inactive_since: T,
        heartbeat_deadline_ms: null,
        led: Led.Red,
        status_text: 'No report from Monit'
      })
    })

    it('makes a host inactive from now, or from when its silence began', () => {
      expect(nextHostState(active, admin(HostStatus.Inactive))).toMatchObject({
        status: HostStatus.Inactive,
        inactive_since: NOW,
        led: Led.Gray
      })
      expect(nextHostState(silent, admin(HostStatus.Inactive))).toMatchObject({ inactive_since: T })
    })

    it('ignores a host keeping its inactivity as it was', () => {
      expect(nextHostState(stopped, admin(HostStatus.Ignored))).toEqual({
        status: HostStatus.Ignored,
        inactive_since: T - 50,
        heartbeat_deadline_ms: null,
        led: Led.Gray,
        status_text: 'Ignored'
      })
    })
  })
})
