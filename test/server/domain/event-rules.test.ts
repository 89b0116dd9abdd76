import { describe, expect, it } from 'vitest'
import type { MonitEvent } from '../../../src/server/monit/message'
import { isAgentStop, isResend } from '../../../src/server/domain/event-rules'

const failure: MonitEvent = {
  collectedSec: 100,
  collectedUsec: 5,
  service: 'sleeper',
  serviceType: 3,
  id: 512,
  state: 1,
  action: 2,
  message: 'process is not running'
}
const usec = (sec: number) => sec * 1_000_000
const at = (sec: number, state = 1) => ({ state, collectedUsec: usec(sec) })

describe('event rules', () => {
  it('a failure re-sent as the first event of a new incarnation, while still failing, is a re-send', () => {
    expect(isResend(at(100), at(200), usec(150))).toBe(true)
    expect(isResend(at(100), at(200), usec(200))).toBe(true) // the incarnation began at the same time
  })

  it('the same state twice within one incarnation is two facts (the change between them is lost or still queued)', () => {
    expect(isResend(at(100), at(120), undefined)).toBe(false)
    expect(isResend(at(100), at(120), usec(90))).toBe(false) // the incarnation began before both
    expect(isResend(at(100), at(120), usec(130))).toBe(false) // the incarnation began after it
  })

  it('a changed state, a first event and "changed" events are never re-sends', () => {
    expect(isResend(at(100, 0), at(200), usec(150))).toBe(false)
    expect(isResend(undefined, at(200), usec(150))).toBe(false)
    expect(isResend(at(100, 2), at(200, 2), usec(150))).toBe(false)
  })

  it('recognises an orderly stop of the current incarnation only', () => {
    const stop = { ...failure, service: 'Monit', id: 65536, state: 2, action: 3, collectedSec: 500 }
    expect(isAgentStop(stop, 450)).toBe(true)
    expect(isAgentStop(stop, 600)).toBe(false) // replayed from the queue by a later start
    expect(isAgentStop({ ...stop, action: 6 }, 450)).toBe(false) // "started"
  })
})
