// A transaction PostgreSQL ended for its conflict with another's (a deadlock, a serialization failure)
// is run again, twice at most, from a clean slate; any other failure is its caller's at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PostgresError } from '../../../src/server/store/postgres/sync-connection'
import { tempStore, type TempStore } from '../../support/temp-store'

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
})
