import { describe, expect, it } from 'vitest'
import { HostStatus, Led } from '../../../src/shared/codes'
import { countServices, hostCategory, hostLed, hostStatusText } from '../../../src/server/domain/host-state'

const healthy = { status: HostStatus.Active, heartbeat: 1, total: 10, failed: 0, changed: 0, unmonitored: 0 }

describe('host LED, category and status text', () => {
  it.each([
    [healthy, Led.Green, 'ok', '10 out of 10 services are available'],
    [{ ...healthy, failed: 1 }, Led.Orange, 'some services failed/unmonitored', '9 out of 10 services are available'],
    [{ ...healthy, unmonitored: 2 }, Led.Orange, 'some services failed/unmonitored', '8 out of 10 services are available'],
    [{ ...healthy, changed: 1 }, Led.Orange, 'some services failed/unmonitored', '9 out of 10 services are available'],
    [{ ...healthy, failed: 8, unmonitored: 2 }, Led.Red, 'services failed', '0 out of 10 services are available'],
    [{ ...healthy, unmonitored: 10 }, Led.Gray, 'some services failed/unmonitored', '0 out of 10 services are available'],
    [{ ...healthy, heartbeat: 0 }, Led.Red, 'failed', 'No report from Monit'],
    [{ ...healthy, status: HostStatus.Inactive, heartbeat: 0 }, Led.Gray, 'inactive', 'Monit is not running'],
    [{ ...healthy, status: HostStatus.Ignored, failed: 3 }, Led.Gray, 'ignored', 'Ignored'],
    [{ ...healthy, total: 0 }, Led.Green, 'ok', '0 out of 0 services are available']
  ])('%o', (condition, led, category, text) => {
    expect(hostLed(condition)).toBe(led)
    expect(hostCategory(condition)).toBe(category)
    expect(hostStatusText(condition)).toBe(text)
  })

  it('counts services by LED', () => {
    expect(countServices([{ led: Led.Green }, { led: Led.Red }, { led: Led.Orange }, { led: Led.Gray }, { led: Led.Red }])).toEqual({
      total: 5,
      failed: 2,
      changed: 1,
      unmonitored: 1
    })
  })
})
