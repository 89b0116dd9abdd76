import { describe, expect, it } from 'vitest'
import type { MonitEvent } from '../../../src/server/collector/message'
import { isAgentStop, isRepeat } from '../../../src/server/domain/event-rules'

const failure: MonitEvent = {
  collectedSec: 100, collectedUsec: 5, service: 'sleeper', serviceType: 3, id: 512, state: 1, action: 2, message: 'process is not running'
}

describe('event rules', () => {
  it('a failure re-sent with a newer time while still failing is a repeat', () => {
    expect(isRepeat({ state: 1, collectedUsec: 100_000_005 }, { ...failure, collectedSec: 200 })).toBe(true)
    expect(isRepeat({ state: 0, collectedUsec: 100_000_005 }, { ...failure, collectedSec: 200 })).toBe(false)
    expect(isRepeat(undefined, failure)).toBe(false)
  })

  it('an older event is never a repeat (it is history), and "changed" events never repeat', () => {
    expect(isRepeat({ state: 1, collectedUsec: 300_000_000 }, failure)).toBe(false)
    expect(isRepeat({ state: 2, collectedUsec: 1 }, { ...failure, id: 1, state: 2 })).toBe(false)
  })

  it('recognises an orderly stop of the current incarnation only', () => {
    const stop = { ...failure, service: 'Monit', id: 65536, state: 2, action: 3, collectedSec: 500 }
    expect(isAgentStop(stop, 450)).toBe(true)
    expect(isAgentStop(stop, 600)).toBe(false) // replayed from the queue by a later start
    expect(isAgentStop({ ...stop, action: 6 }, 450)).toBe(false) // "started"
  })
})
