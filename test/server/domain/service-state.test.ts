import { describe, expect, it } from 'vitest'
import { Led } from '../../../src/shared/codes'
import { activeErrorsByService } from '../../../src/server/domain/event-rules'
import { serviceLed, serviceStatusText } from '../../../src/server/domain/service-state'

const ok = { monitor: 1, status: 0, statusHint: 0, pendingAction: 0, activeErrors: 0 }

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
    [{ ...ok, monitor: 0, pendingAction: 6 }, Led.Gray, 'Not monitored - start pending'],
    // A start that "succeeds" but whose process never appears: Monit keeps it initializing (issue 28).
    [{ ...ok, monitor: 2, status: 4608 }, Led.Red, 'Does not exist | Execution failed'],
    // Initializing after a restart, not checked yet: the failure its events reported still stands.
    [{ ...ok, monitor: 2, activeErrors: 512 }, Led.Red, 'Does not exist'],
    [{ ...ok, monitor: 5, status: 32 }, Led.Red, 'Connection failed'],
    // Once checked, Monit's status bits are its verdict: a stale active error (its recovery never sent) does not count.
    [{ ...ok, activeErrors: 512 }, Led.Green, 'OK'],
    [{ ...ok, monitor: 0, status: 512, activeErrors: 512 }, Led.Gray, 'Not monitored']
  ])('%o → LED %i, "%s"', (condition, led, text) => {
    expect(serviceLed(condition)).toBe(led)
    expect(serviceStatusText(condition)).toBe(text)
  })
})

describe('active errors by service, from the newest event of each class', () => {
  const at = (sec: number) => sec * 1_000_000
  const stored = [
    { service: 'web', class: 512, state: 1, collectedUsec: at(100) },
    { service: 'web', class: 4096, state: 0, collectedUsec: at(90) },
    { service: 'db', class: 32, state: 0, collectedUsec: at(100) },
    { service: 'Monit', class: 1048576, state: 1, collectedUsec: at(100) },
    { service: 'agent', class: 65536, state: 1, collectedUsec: at(100) }
  ]

  it('counts the failed classes, not the agent and heartbeat ones', () => {
    expect(activeErrorsByService(stored)).toEqual(new Map([['web', 512]]))
  })

  it("counts the message's own event when it is newer than the stored one of its class", () => {
    const event = (service: string, id: number, state: number, collectedSec: number) => ({
      service,
      id,
      state,
      collectedSec,
      collectedUsec: 0
    })
    expect(activeErrorsByService(stored, event('web', 4096, 1, 110))).toEqual(new Map([['web', 4608]]))
    expect(activeErrorsByService(stored, event('web', 512, 0, 110))).toEqual(new Map())
    // Late (a queue replay): history, not the current state.
    expect(activeErrorsByService(stored, event('web', 512, 0, 50))).toEqual(new Map([['web', 512]]))
  })
})
