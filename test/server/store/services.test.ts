import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serviceState } from '../../support/service-state'
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

describe('updateStates', () => {
  const state = (name: string, position: number) => ({ ...serviceState(t.store, name, position), collectedUsec: 1_700_000_000_000_000 })
  const columns = 'name, collected_usec, status, monitor, every, led, status_text, statistics'
  const stored = (hostId: number) =>
    t.store.sql.plain.prepare(`SELECT ${columns} FROM service WHERE host_id = ? ORDER BY position`).all(hostId)

  it('writes every service given, in one statement where the engine has one, text and nulls kept as they are', () => {
    const hostId = t.store.transaction(() => t.store.hosts.register('agent-update-states', 'web', 1_700_000_000).id)
    const services = t.store.transaction(() =>
      ['nginx', 'sshd', 'disk "root"'].map((name, i) => ({ id: t.store.services.insert(hostId, state(name, i)), ...state(name, i) }))
    )
    // Text a column array must carry intact: quotes, backslashes, braces, commas, non-ASCII, empty.
    const changed = [
      {
        ...services[0],
        collectedUsec: 1_700_000_060_000_000,
        status: 2,
        led: 0,
        statusText: 'Does not exist',
        statistics: '[[1,"a\\\\b",2,"x,\\"y\\"}{"]]'
      },
      { ...services[1], every: 'cron "*/5 * * * *"', statusText: 'Ünïcödé ✓', statistics: '' },
      { ...services[2], monitor: 0, every: null, statusText: 'Not monitored', statistics: '[[9,"NULL",0,null]]' }
    ]
    t.store.transaction(() => t.store.services.updateStates(changed))
    expect(stored(hostId)).toEqual(
      changed.map((s) => ({
        name: s.name,
        collected_usec: s.collectedUsec,
        status: s.status,
        monitor: s.monitor,
        every: s.every,
        led: s.led,
        status_text: s.statusText,
        statistics: s.statistics
      }))
    )
  })

  it('leaves other services alone and writes nothing for an empty list', () => {
    const hostId = t.store.transaction(() => t.store.hosts.register('agent-update-states-2', 'db', 1_700_000_000).id)
    const [a] = t.store.transaction(() =>
      ['a', 'b'].map((name, i) => ({ id: t.store.services.insert(hostId, state(name, i)), ...state(name, i) }))
    )
    const before = stored(hostId)
    t.store.transaction(() => t.store.services.updateStates([]))
    expect(stored(hostId)).toEqual(before)
    t.store.transaction(() => t.store.services.updateStates([{ ...a, statusText: 'changed' }]))
    expect(stored(hostId).map((r) => (r as { status_text: string }).status_text)).toEqual(['changed', 'OK'])
  })
})
