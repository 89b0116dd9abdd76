import { describe, expect, it } from 'vitest'
import { downSpans } from '../../../src/server/domain/down-spans'

const STATUS = 2097152
const CONNECTION = 32
const fail = (sec: number, cls = STATUS) => ({ cls, state: 1, sec })
const ok = (sec: number, cls = STATUS) => ({ cls, state: 0, sec })

describe('down spans', () => {
  it('a service is down from a failure until its recovery, and still down after a last failure', () => {
    expect(downSpans(new Set(), [fail(10), ok(20), fail(30)])).toEqual([
      { start: 10, end: 20 },
      { start: 30, end: null }
    ])
  })

  it('continues the span open before the slice', () => {
    expect(downSpans(new Set([STATUS]), [ok(15), fail(25)])).toEqual([
      { start: null, end: 15 },
      { start: 25, end: null }
    ])
    expect(downSpans(new Set([STATUS]), [])).toEqual([{ start: null, end: null }])
  })

  it('stays down while any class fails, and a second failure of a failing service changes nothing', () => {
    expect(downSpans(new Set(), [fail(10), fail(12, CONNECTION), ok(15), fail(16), ok(18, CONNECTION), ok(20)])).toEqual([
      { start: 10, end: 20 }
    ])
  })

  it('"changed" events and recoveries of a service that is up change nothing', () => {
    expect(downSpans(new Set(), [{ cls: 1, state: 2, sec: 5 }, ok(8), { cls: 1, state: 4, sec: 9 }])).toEqual([])
  })
})
