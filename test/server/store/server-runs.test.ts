// The server's runs in a real SQLite file (migration 005): starts, alive stamps, clean stops, and the
// downtimes between runs that overlap a span.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ServerRunRepository } from '../../../src/server/store/server-runs'
import { tempStore, type TempStore } from '../../support/temp-store'

const T = 1_800_000_000
let t: TempStore
let runs: ServerRunRepository
beforeEach(() => {
  t = tempStore()
  runs = t.store.serverRuns
})
afterEach(() => t.close())

describe('server runs', () => {
  it('records a start, alive stamps and a clean stop', () => {
    const id = runs.begin(T)
    runs.alive(id, T + 10)
    runs.stop(id, T + 15)
    expect(t.store.sql.plain.prepare('SELECT started_at, alive_at, stopped_at FROM server_run').all()).toEqual([
      { started_at: T, alive_at: T + 15, stopped_at: T + 15 }
    ])
  })

  it('gives the gap after a clean stop and after a kill (last alive stamp) as downtime', () => {
    const first = runs.begin(T)
    runs.stop(first, T + 100)
    const second = runs.begin(T + 148) // 48 s down after a clean stop
    runs.alive(second, T + 200) // killed after this stamp: no stop written
    runs.begin(T + 260)
    expect(runs.downtimes({ from: T, to: T + 3600 })).toEqual([
      { start: T + 100, end: T + 148 },
      { start: T + 200, end: T + 260 }
    ])
  })

  it('lists only the downtimes overlapping the span, also one that began before it', () => {
    let id = runs.begin(T)
    for (const [stop, next] of [
      [T + 100, T + 200],
      [T + 300, T + 400],
      [T + 500, T + 600]
    ]) {
      runs.stop(id, stop)
      id = runs.begin(next)
    }
    expect(runs.downtimes({ from: T + 150, to: T + 350 })).toEqual([
      { start: T + 100, end: T + 200 },
      { start: T + 300, end: T + 400 }
    ])
    expect(runs.downtimes({ from: T + 400, to: T + 500 })).toEqual([])
    expect(runs.downtimes({ from: T + 700, to: T + 800 })).toEqual([])
  })

  it('has no downtime before the first run is recorded, nor during the current one', () => {
    expect(runs.downtimes({ from: T, to: T + 60 })).toEqual([])
    runs.begin(T + 30)
    expect(runs.downtimes({ from: T, to: T + 3600 })).toEqual([])
  })
})
