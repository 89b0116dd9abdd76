// A transaction PostgreSQL ended for its conflict with another's (a deadlock, a serialization failure)
// is run again, twice at most, from a clean slate; any other failure is its caller's at once. The last
// case is a real deadlock with another session.
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PostgresError, SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'
import { waitFor } from '../../support/wait'

let t: TempStore
beforeEach(() => (t = tempStore()))
afterEach(() => t.close())

const settingCount = () => Number(t.store.sql.rows<{ n: number }>("SELECT count(*) AS n FROM setting WHERE key LIKE 'repeat-%'")[0].n)

/** A transaction that writes a row, then fails with `codes` in turn (one per attempt) before it succeeds. */
function failingWith(codes: string[]): () => number {
  let attempt = 0
  return () => {
    attempt++
    t.store.sql.execute(`INSERT INTO setting (key, value) VALUES ('repeat-${attempt}', 'x')`)
    const code = codes[attempt - 1]
    if (code) throw new PostgresError(`failed with ${code}`, code)
    return attempt
  }
}

describe('Store.repeatableTransaction', () => {
  it('runs again after a deadlock and a serialization failure, keeping only the last attempt', () => {
    expect(t.store.repeatableTransaction(failingWith(['40P01', '40001']))).toBe(3)
    expect(settingCount()).toBe(1)
  })

  it('gives up after three conflicts, storing nothing', () => {
    expect(() => t.store.repeatableTransaction(failingWith(['40P01', '40P01', '40P01']))).toThrow('failed with 40P01')
    expect(settingCount()).toBe(0)
  })

  it('leaves any other failure to its caller at once', () => {
    expect(() => t.store.repeatableTransaction(failingWith(['23505']))).toThrow('failed with 23505')
    expect(settingCount()).toBe(0)
  })

  it.skipIf(testEngine !== 'postgres')(
    "runs again after a real deadlock with another session, which then completes too; the first attempt's write is gone",
    async () => {
      const url = t.store.location
      const gate = new SyncConnection(url)
      const other = new pg.Client({ connectionString: url })
      await other.connect()
      const GATE = 7_290_001
      try {
        t.store.sql.execute('CREATE TABLE deadlock_probe (id integer PRIMARY KEY, n integer NOT NULL)')
        t.store.sql.execute('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)')
        // The other session takes row 2, waits at a gate this test holds, then wants row 1. Its deadlock
        // check comes late: the store's transaction is the one PostgreSQL ends.
        gate.query(`SELECT pg_advisory_lock(${GATE})`)
        const otherDone = other.query(
          `BEGIN; SET LOCAL deadlock_timeout = '30s'; UPDATE deadlock_probe SET n = n + 10 WHERE id = 2;
           SELECT pg_advisory_lock(${GATE}); SELECT pg_advisory_unlock(${GATE});
           UPDATE deadlock_probe SET n = n + 10 WHERE id = 1; COMMIT`
        )
        const otherPid = (other as unknown as { processID: number }).processID
        const waitingOn = (locktype: string) =>
          Number(
            gate.query(`SELECT count(*) AS n FROM pg_locks WHERE pid = ${otherPid} AND locktype = '${locktype}' AND NOT granted`).rows[0].n
          ) > 0
        await waitFor('the other session at the gate, holding row 2', () => waitingOn('advisory'), 10_000, 10)
        let attempts = 0
        const result = t.store.repeatableTransaction(() => {
          attempts++
          if (attempts === 1) t.store.sql.execute("SET LOCAL deadlock_timeout = '100ms'")
          t.store.sql.execute('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1')
          if (attempts === 1) {
            // Open the gate, and go on only once the other waits for row 1, which this transaction holds.
            gate.query(`SELECT pg_advisory_unlock(${GATE})`)
            const until = Date.now() + 10_000
            while (!waitingOn('transactionid')) if (Date.now() > until) throw new Error('the other session never waited for row 1')
          }
          t.store.sql.execute('UPDATE deadlock_probe SET n = n + 1 WHERE id = 2')
          return attempts
        })
        expect(result).toBe(2)
        await otherDone
        // Each row: the other session's 10 once, this one's 1 once (the deadlocked attempt's write rolled back).
        expect(t.store.sql.rows<{ id: number; n: number }>('SELECT id, n FROM deadlock_probe ORDER BY id')).toEqual([
          { id: 1, n: 11 },
          { id: 2, n: 11 }
        ])
      } finally {
        gate.close()
        await other.end()
      }
    },
    30_000
  )
})
