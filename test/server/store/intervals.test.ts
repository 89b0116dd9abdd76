// Down-time intervals as the event recorder and the heartbeat rules keep them: each open and close is one
// statement sent with the transaction's next (runLater), on both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'

let t: TempStore
let hostId: number
let nameId: number
/** By start, a service's before the host's (the engines sort nulls apart). */
const rows = () =>
  t.store.sql
    .rows<{ service_name_id: number | null; start: number; end: number | null }>(
      'SELECT service_name_id, start, "end" FROM state_interval WHERE host_id = ?',
      [hostId]
    )
    .sort((a, b) => a.start - b.start || (a.service_name_id ?? Infinity) - (b.service_name_id ?? Infinity))
const inTransaction = (fn: () => void) => t.store.transaction(fn)

beforeEach(() => {
  t = tempStore()
  hostId = t.post(fixture('02-status-heartbeat')).hostId
  nameId = t.store.services.nameId('sleeper')
})
afterEach(() => t.close())

describe('IntervalRepository: open and close', () => {
  it('opens once: a second open while one is open adds nothing, per service and for the host apart', () => {
    inTransaction(() => {
      t.store.intervals.open(hostId, nameId, 1000)
      t.store.intervals.open(hostId, nameId, 1010)
      t.store.intervals.open(hostId, null, 1020)
      t.store.intervals.open(hostId, null, 1030)
    })
    expect(rows()).toEqual([
      { service_name_id: nameId, start: 1000, end: null },
      { service_name_id: null, start: 1020, end: null }
    ])
  })

  it('closes only the open one of its service, never before its start; a close with none open changes nothing', () => {
    inTransaction(() => {
      t.store.intervals.open(hostId, nameId, 1000)
      t.store.intervals.close(hostId, nameId, 1100)
      t.store.intervals.close(hostId, nameId, 1200)
      t.store.intervals.open(hostId, nameId, 1300)
      t.store.intervals.open(hostId, null, 1300)
      // An agent clock behind: the end is never before the start.
      t.store.intervals.close(hostId, nameId, 1250)
    })
    expect(rows()).toEqual([
      { service_name_id: nameId, start: 1000, end: 1100 },
      { service_name_id: nameId, start: 1300, end: 1300 },
      { service_name_id: null, start: 1300, end: null }
    ])
  })
})
