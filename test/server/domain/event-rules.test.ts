import { describe, expect, it } from 'vitest'
import type { MonitEvent } from '../../../src/server/collector/message'
import { isAgentStop, isResend } from '../../../src/server/domain/event-rules'

const failure: MonitEvent = {
  collectedSec: 100, collectedUsec: 5, service: 'sleeper', serviceType: 3, id: 512, state: 1, action: 2, message: 'process is not running'
}
const usec = (sec: number) => sec * 1_000_000

describe('event rules', () => {
  it('a failure re-sent as the first event of a new incarnation, while still failing, is a re-send', () => {
    const resent = { ...failure, collectedSec: 200 }
    expect(isResend({ state: 1, collectedUsec: usec(100) }, resent, usec(150))).toBe(true)
    expect(isResend({ state: 1, collectedUsec: usec(100) }, resent, usec(200))).toBe(true) // incarnation began the same second
  })

  it('the same state twice within one incarnation is two facts (the change between them is lost or still queued)', () => {
    const later = { ...failure, collectedSec: 120 }
    expect(isResend({ state: 1, collectedUsec: usec(100) }, later, undefined)).toBe(false)
    expect(isResend({ state: 1, collectedUsec: usec(100) }, later, usec(90))).toBe(false) // incarnation began before both
    expect(isResend({ state: 1, collectedUsec: usec(100) }, later, usec(130))).toBe(false) // incarnation began after it
  })

  it('a changed state, a first event and "changed" events are never re-sends', () => {
    expect(isResend({ state: 0, collectedUsec: usec(100) }, { ...failure, collectedSec: 200 }, usec(150))).toBe(false)
    expect(isResend(undefined, failure, usec(50))).toBe(false)
    expect(isResend({ state: 2, collectedUsec: usec(1) }, { ...failure, id: 1, state: 2 }, usec(50))).toBe(false)
  })

  it('recognises an orderly stop of the current incarnation only', () => {
    const stop = { ...failure, service: 'Monit', id: 65536, state: 2, action: 3, collectedSec: 500 }
    expect(isAgentStop(stop, 450)).toBe(true)
    expect(isAgentStop(stop, 600)).toBe(false) // replayed from the queue by a later start
    expect(isAgentStop({ ...stop, action: 6 }, 450)).toBe(false) // "started"
  })
})
