// Statistic registration (store/history-series.ts): ids are stable per service, type and descriptor,
// whether registered one by one or several at once (one statement on PostgreSQL).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serviceState } from '../../support/service-state'
import { tempStore, type TempStore } from '../../support/temp-store'

let t: TempStore
beforeEach(() => (t = tempStore()))
afterEach(() => t.close())

const newService = () =>
  t.store.transaction(() => {
    const hostId = t.store.hosts.register('agent-series', 'web', 1_700_000_000).id
    const serviceId = t.store.services.insert(hostId, serviceState(t.store, 'web', 0))
    return { hostId, serviceId }
  })

describe('registerAll', () => {
  it('gives the ids in the order asked, the known one kept, the same again on a second call', () => {
    const { hostId, serviceId } = newService()
    const { series } = t.store.history
    const known = t.store.transaction(() => series.register(serviceId, 7, '/'))
    const statistics = [
      { type: 1, descriptor: '' },
      { type: 7, descriptor: '/' },
      { type: 7, descriptor: '/var "log", {x}\\y' },
      { type: 9, descriptor: 'eth0 ünï' }
    ]
    const ids = t.store.transaction(() => series.registerAll(serviceId, statistics))
    expect(ids).toHaveLength(4)
    expect(new Set(ids).size).toBe(4)
    expect(ids[1]).toBe(known)
    expect(t.store.transaction(() => series.registerAll(serviceId, statistics))).toEqual(ids)
    expect(statistics.map((st) => t.store.transaction(() => series.register(serviceId, st.type, st.descriptor)))).toEqual(ids)
    const stored = new Map(series.idsOfHost(hostId).map((row) => [row.id, { type: row.type, descriptor: row.descriptor }]))
    expect(ids.map((id) => stored.get(id))).toEqual(statistics)
  })
})
