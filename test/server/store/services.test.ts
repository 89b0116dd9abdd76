import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempStore, type TempStore } from '../../support/temp-store'

let t: TempStore
beforeEach(() => (t = tempStore()))
afterEach(() => t.close())

const storedNameId = (name: string) =>
  (t.store.sql.plain.prepare('SELECT id FROM service_name WHERE name = ?').get(name) as { id: number } | undefined)?.id

describe('service name ids', () => {
  it('are shared and remembered once committed', () => {
    const id = t.store.transaction(() => t.store.services.nameId('nginx'))
    expect(t.store.services.nameId('nginx')).toBe(id)
    expect(storedNameId('nginx')).toBe(id)
  })

  it('are not remembered from a transaction or savepoint that was rolled back', () => {
    const fail = (fn: () => unknown) =>
      expect(() =>
        t.store.transaction(() => {
          fn()
          throw new Error('rolled back')
        })
      ).toThrow('rolled back')
    fail(() => t.store.services.nameId('ghost'))
    // A savepoint inside a transaction that commits: only the savepoint's insert is undone.
    t.store.transaction(() => {
      t.store.services.nameId('kept')
      fail(() => t.store.services.nameId('ghost-in-savepoint'))
    })
    for (const name of ['ghost', 'ghost-in-savepoint', 'kept']) {
      expect(t.store.services.nameId(name)).toBe(storedNameId(name))
    }
  })
})
