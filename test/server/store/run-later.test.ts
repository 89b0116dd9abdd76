// Prepared.runLater on a real store (SQLite file, or a PostgreSQL database with OVERSEER_TEST_POSTGRES):
// a write sent with the next statement is seen by the next read, rolls back with its transaction, and its
// error surfaces inside the transaction that made it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempStore, type TempStore } from '../../support/temp-store'

let t: TempStore
beforeEach(() => {
  t = tempStore()
})
afterEach(() => t.close())

const setting = () => {
  const { db, sql } = t.store
  return {
    write: sql.prepare((p: { key: string; value: string }) => db.insertInto('setting').values({ key: p.key, value: p.value })),
    read: sql.prepare((p: { key: string }) => db.selectFrom('setting').select('value').where('key', '=', p.key))
  }
}

describe('runLater', () => {
  it('is seen by the next read in the same transaction, and after the commit', () => {
    const s = setting()
    const seen = t.store.sql.transaction(() => {
      s.write.runLater({ key: 'bench.a', value: '1' })
      return s.read.get({ key: 'bench.a' })?.value
    })
    expect(seen).toBe('1')
    t.store.sql.transaction(() => s.write.runLater({ key: 'bench.b', value: '2' }))
    expect(s.read.get({ key: 'bench.b' })?.value).toBe('2')
  })

  it('rolls back with the savepoint it was made in, and leaves the outer transaction going', () => {
    const s = setting()
    t.store.sql.transaction(() => {
      s.write.runLater({ key: 'bench.kept', value: '1' })
      expect(() =>
        t.store.sql.transaction(() => {
          s.write.runLater({ key: 'bench.dropped', value: '2' })
          throw new Error('abandoned')
        })
      ).toThrow('abandoned')
    })
    expect(s.read.get({ key: 'bench.kept' })?.value).toBe('1')
    expect(s.read.get({ key: 'bench.dropped' })).toBeUndefined()
  })

  it('fails the transaction that made a failing write, not a later one', () => {
    const s = setting()
    s.write.run({ key: 'bench.taken', value: '1' })
    expect(() => t.store.sql.transaction(() => s.write.runLater({ key: 'bench.taken', value: '2' }))).toThrow()
    t.store.sql.transaction(() => s.write.runLater({ key: 'bench.next', value: '3' }))
    expect(s.read.get({ key: 'bench.taken' })?.value).toBe('1')
    expect(s.read.get({ key: 'bench.next' })?.value).toBe('3')
  })

  it('reports the first failing write of several sent together, and keeps none of them', () => {
    const s = setting()
    s.write.run({ key: 'bench.taken', value: '1' })
    expect(() =>
      t.store.sql.transaction(() => {
        s.write.runLater({ key: 'bench.before', value: '1' })
        s.write.runLater({ key: 'bench.taken', value: '2' })
        s.write.runLater({ key: 'bench.after', value: '3' })
        return s.read.get({ key: 'bench.after' })
      })
    ).toThrow(/unique/i)
    expect(s.read.get({ key: 'bench.before' })).toBeUndefined()
    expect(s.read.get({ key: 'bench.after' })).toBeUndefined()
    expect(s.read.get({ key: 'bench.taken' })?.value).toBe('1')
  })
})
