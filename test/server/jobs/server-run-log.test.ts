// The server's run log over a real SQLite file: start, alive stamps, clean stop, and failures that are
// logged instead of thrown (a timer must never take the process down).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ServerRunLog } from '../../../src/server/jobs/server-run-log'
import { tempStore, type TempStore } from '../../support/temp-store'

const T0 = 1_800_000_000_000 // ms
let t: TempStore
let errors: string[]
let runLog: ServerRunLog
beforeEach(() => {
  t = tempStore()
  errors = []
  runLog = new ServerRunLog(t.store, (m) => errors.push(m))
})
afterEach(() => {
  runLog.stop()
  t.close()
})

const rows = () => t.store.sql.sqlite.prepare('SELECT started_at, alive_at, stopped_at FROM server_run ORDER BY id').all()

describe('server run log', () => {
  it('records the start, each alive stamp and the clean stop', () => {
    runLog.start(T0)
    expect(rows()).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000, stopped_at: null }])
    runLog.stampAlive(T0 + 10_000)
    expect(rows()).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000 + 10, stopped_at: null }])
    runLog.stop(T0 + 12_000)
    expect(rows()).toEqual([{ started_at: T0 / 1000, alive_at: T0 / 1000 + 12, stopped_at: T0 / 1000 + 12 }])
    expect(errors).toEqual([])
  })

  it('stamps alive on its own timer', async () => {
    runLog.start(T0, 20)
    await new Promise((r) => setTimeout(r, 200))
    const [row] = rows() as { alive_at: number }[]
    // The timer stamps with the real clock, far past T0.
    expect(row.alive_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1)
  })

  it('logs a failed write instead of throwing', () => {
    runLog.start(T0)
    t.store.sql.sqlite.exec('DROP TABLE server_run')
    expect(() => runLog.stampAlive(T0 + 10_000)).not.toThrow()
    expect(() => runLog.stop(T0 + 12_000)).not.toThrow()
    expect(errors).toEqual(['could not stamp the server alive: no such table: server_run', 'could not record the server stop: no such table: server_run'])
  })
})
