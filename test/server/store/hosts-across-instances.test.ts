// Two instances storing one agent's messages (store/hosts.ts): on PostgreSQL the host's row is locked for
// the message's transaction, and an agent registered by the other instance meanwhile is taken, not refused.
import { afterEach, describe, expect, it } from 'vitest'
import { Store } from '../../../src/server/store/store'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'

let t: TempStore
let other: Store
afterEach(() => {
  other.close()
  t.close()
})

describe.skipIf(testEngine !== 'postgres')('on PostgreSQL', () => {
  it("holds the host's row for the message's transaction: the other instance waits for it", () => {
    t = tempStore()
    other = new Store(t.store.location)
    const id = t.store.transaction(() => t.store.hosts.register('agent-1', 'web-1', 0).id)
    // The other instance gives up after 200 ms instead of waiting: this thread holds the lock.
    other.sql.execute("SET lock_timeout = '200ms'")
    t.store.transaction(() => {
      expect(t.store.hosts.reportingHost('agent-1')?.id).toBe(id)
      expect(() => other.transaction(() => other.hosts.reportingHost('agent-1'))).toThrow(/lock timeout/)
    })
    expect(other.transaction(() => other.hosts.reportingHost('agent-1'))?.id).toBe(id)
  })

  it('takes the host another instance registered since it looked', () => {
    t = tempStore()
    other = new Store(t.store.location)
    expect(other.hosts.reportingHost('agent-2')).toBeUndefined()
    const id = t.store.transaction(() => t.store.hosts.register('agent-2', 'web-2', 0).id)
    expect(other.transaction(() => other.hosts.register('agent-2', 'web-2', 0).id)).toBe(id)
  })
})
