// Slow statements of the HTTP thread (issue 29): said once when they begin, once when none was slow for
// 30 s, counted for /metrics meanwhile.
import { afterEach, describe, expect, it } from 'vitest'
import { DatabaseWaits } from '../../../src/server/metrics/database-waits'

let nowMs = 0
let waits: DatabaseWaits | undefined
afterEach(() => waits?.close())

describe('DatabaseWaits', () => {
  it('logs a slowness once, counts its statements, and says when it is over', () => {
    const lines: string[] = []
    waits = new DatabaseWaits({ info: (m) => lines.push(`INFO ${m}`), warn: (m) => lines.push(`WARN ${m}`), error: () => {} }, () => nowMs)
    expect(waits.slow).toBe(false)
    waits.waited(1_400)
    nowMs += 10_000
    waits.waited(2_000)
    expect({ slow: waits.slow, count: waits.slowStatements }).toEqual({ slow: true, count: 2 })
    nowMs += 29_999
    waits.check()
    expect(waits.slow).toBe(true)
    nowMs += 1
    waits.check()
    waits.check()
    expect({ slow: waits.slow, count: waits.slowStatements }).toEqual({ slow: false, count: 2 })
    expect(lines).toEqual([
      'WARN database: a statement took 1.4 s (more than 1 s): requests wait on it meanwhile; said again once statements answer in time for 30 s',
      'INFO database: statements answer in time again (slow for 10 s, 2 slow statements since start)'
    ])
  })
})
