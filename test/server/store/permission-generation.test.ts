// The permission generation that cached principals compare against (store/permission-generation.ts): on
// PostgreSQL a row, so that a change made through one instance reaches the caches of another (within a second).
import { afterEach, describe, expect, it } from 'vitest'
import { GENERATION_READ_AGAIN_MS, StoredPermissionGeneration } from '../../../src/server/store/permission-generation'
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
  it('is seen changed by another instance within a second, at once by its own, and unchanged when the write rolls back', () => {
    t = tempStore()
    other = new Store(t.store.location)
    let clock = 0
    const here = new StoredPermissionGeneration(t.store.sql, () => clock)
    const there = new StoredPermissionGeneration(other.sql, () => clock)
    const before = there.value
    here.bump()
    expect(here.value).toBe(before + 1)
    // The other instance trusts its last read for up to a second.
    clock += GENERATION_READ_AGAIN_MS - 1
    expect(there.value).toBe(before)
    clock += 1
    expect(there.value).toBe(before + 1)
    expect(() =>
      t.store.transaction(() => {
        here.bump()
        throw new Error('the write failed')
      })
    ).toThrow('the write failed')
    clock += GENERATION_READ_AGAIN_MS
    expect(there.value).toBe(before + 1)
    expect(here.value).toBe(before + 1)
  })
})
