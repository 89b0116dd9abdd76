import { describe, expect, it } from 'vitest'
import { Led } from '../../../src/shared/codes'
import { serviceLed, serviceStatusText } from '../../../src/server/domain/service-state'

const ok = { monitor: 1, status: 0, statusHint: 0, pendingAction: 0 }

describe('service LED and status text (agent protocol §4.7)', () => {
  it.each([
    [{ ...ok }, Led.Green, 'OK'],
    [{ ...ok, monitor: 0 }, Led.Gray, 'Not monitored'],
    [{ ...ok, monitor: 2 }, Led.Gray, 'Initializing'],
    [{ ...ok, monitor: 5 }, Led.Green, 'Waiting'],
    [{ ...ok, status: 32 }, Led.Red, 'Connection failed'],
    [{ ...ok, status: 512 }, Led.Red, 'Does not exist'],
    [{ ...ok, status: 1, statusHint: 1 }, Led.Orange, 'Checksum changed'],
    [{ ...ok, status: 33, statusHint: 1 }, Led.Red, 'Checksum changed | Connection failed'],
    [{ ...ok, status: 0, statusHint: 1 }, Led.Green, 'OK'], // stale hint bit after recovery
    [{ ...ok, pendingAction: 3 }, Led.Green, 'OK - stop pending'],
    [{ ...ok, monitor: 0, pendingAction: 6 }, Led.Gray, 'Not monitored - start pending']
  ])('%o → LED %i, "%s"', (condition, led, text) => {
    expect(serviceLed(condition)).toBe(led)
    expect(serviceStatusText(condition)).toBe(text)
  })
})
