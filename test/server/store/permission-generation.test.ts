// The permission generation that cached principals compare against (store/permission-generation.ts): on
// PostgreSQL a row, so that a change made through one instance reaches the caches of another.
import { afterEach, describe, expect, it } from 'vitest'
import { StoredPermissionGeneration } from '../../../src/server/store/permission-generation'
import { Store } from '../../../src/server/store/store'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

let t: TempStore
let other: Store | undefined
afterEach(() => {
  other?.close()
  t.close()
})

describe.skipIf(testEngine !== 'postgres')('on PostgreSQL', () => {
  it('is seen changed by another instance, and unchanged when the write rolls back', () => {
    t = tempStore()
    other = new Store(t.store.location)
    const here = new StoredPermissionGeneration(t.store.sql)
    const there = new StoredPermissionGeneration(other.sql)
    const before = there.value
    here.bump()
    expect(there.value).toBe(before + 1)
    expect(() =>
      t.store.transaction(() => {
        here.bump()
        throw new Error('the write failed')
      })
    ).toThrow('the write failed')
    expect(there.value).toBe(before + 1)
  })
})
