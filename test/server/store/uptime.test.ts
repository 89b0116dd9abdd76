// The uptime list reads the whole fleet's down intervals at once, or only the changed hosts'
// (api/reports-uptime.ts): both reads must give the same intervals, and each host's count of changes
// (migration 023) must move with every write that changes them, and only then.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MonitorState } from '../../../src/shared/codes'
import type { HostDowns } from '../../../src/server/store/uptime'
import { tempStore, type TempStore } from '../../support/temp-store'

const HOUR = 3600
const T0 = 1_700_000_000
const SPAN = { from: T0, to: T0 + 24 * HOUR }

let t: TempStore
beforeEach(() => (t = tempStore()))
afterEach(() => t.close())

/** A small deterministic generator (mulberry32): the same fleet on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 2 ** 32
  }
}

function addHost(name: string): number {
  return t.store.hosts.register(name.padEnd(32, '-'), name, T0 - HOUR).id
}

function addService(hostId: number, name: string, position: number, monitor: number): number {
  const { db, sql } = t.store
  const nameId = t.store.services.nameId(name)
  sql.run(
    db.insertInto('service').values({
      host_id: hostId,
      name_id: nameId,
      name,
      type: 3,
      position,
      collected_usec: T0 * 1_000_000,
      status: 0,
      status_hint: 0,
      monitor,
      monitor_mode: 0,
      on_reboot: 0,
      pending_action: 0,
      every: null,
      led: 2,
      status_text: 'OK',
      statistics: '[]'
    })
  )
  return nameId
}

function addInterval(hostId: number, nameId: number | null, start: number, end: number | null): void {
  const { db, sql } = t.store
  sql.run(db.insertInto('state_interval').values({ host_id: hostId, service_name_id: nameId, start, end }))
}

const sorted = ({ downs, monitored }: HostDowns) => ({
  monitored,
  downs: [...downs].sort((a, b) => (a.service_name_id ?? -1) - (b.service_name_id ?? -1) || a.start - b.start)
})

const generationOf = (hostId: number) => t.store.uptime.host(hostId)!.uptime_generation

describe('the down intervals of the uptime list', () => {
  it('are the same read for the whole fleet or for some hosts', () => {
    const next = random(28)
    const hostIds: number[] = []
    t.store.transaction(() => {
      for (let h = 0; h < 30; h++) {
        const hostId = addHost(`host-${h}`)
        hostIds.push(hostId)
        const monitorStates = [MonitorState.On, MonitorState.On, MonitorState.Off, MonitorState.Initializing]
        const nameIds = Array.from({ length: Math.floor(next() * 5) }, (_, s) =>
          addService(hostId, `svc-${s}`, s, monitorStates[Math.floor(next() * monitorStates.length)])
        )
        // Intervals of its services, of a service it no longer has, and its silences; before, across
        // and after the span's edges, one of each kind left open.
        for (const nameId of [...nameIds, t.store.services.nameId('removed'), null]) {
          let at = T0 - 6 * HOUR + Math.floor(next() * 4 * HOUR)
          while (at < SPAN.to + 2 * HOUR) {
            const length = Math.floor(next() * 5 * HOUR)
            const open = at + length >= SPAN.to + 2 * HOUR
            addInterval(hostId, nameId, at, open ? null : at + length)
            at += length + 1 + Math.floor(next() * 6 * HOUR)
          }
        }
      }
    })
    const fleet = t.store.uptime.fleetDowns(SPAN)
    const some = hostIds.filter((_, i) => i % 3 !== 0)
    const apart = t.store.uptime.hostsDowns(some, SPAN)
    expect([...apart.keys()].filter((id) => !some.includes(id))).toEqual([])
    let compared = 0
    for (const hostId of some) {
      const one = apart.get(hostId) ?? { downs: [], monitored: 0 }
      expect(sorted(fleet.get(hostId) ?? { downs: [], monitored: 0 }), `host ${hostId}`).toEqual(sorted(one))
      compared += one.downs.length
    }
    expect(compared).toBeGreaterThan(100)
  })
})

describe("a host's count of changes", () => {
  it('moves with its intervals and with which of its services exist or are monitored, and only with them', () => {
    const { db, sql } = t.store
    const hostId = addHost('alpha')
    const otherId = addHost('bravo')
    let seen = generationOf(hostId)
    const moves = (write: () => void) => {
      write()
      const now = generationOf(hostId)
      const moved = now !== seen
      seen = now
      return moved
    }
    let nameId = 0
    expect(moves(() => (nameId = addService(hostId, 'nginx', 0, MonitorState.On)))).toBe(true)
    expect(moves(() => addInterval(hostId, nameId, T0, null))).toBe(true)
    expect(moves(() => t.store.intervals.close(hostId, nameId, T0 + HOUR))).toBe(true)
    expect(moves(() => t.store.intervals.open(hostId, null, T0 + 2 * HOUR))).toBe(true)
    expect(moves(() => sql.run(db.updateTable('service').set({ monitor: MonitorState.Off }).where('host_id', '=', hostId)))).toBe(true)
    expect(moves(() => sql.run(db.deleteFrom('state_interval').where('host_id', '=', hostId)))).toBe(true)
    expect(moves(() => sql.run(db.deleteFrom('service').where('host_id', '=', hostId)))).toBe(true)
    expect(moves(() => sql.run(db.updateTable('host').set({ hostname: 'alpha-2' }).where('id', '=', hostId)))).toBe(true)
    expect(moves(() => sql.run(db.updateTable('host').set({ status: 1 }).where('id', '=', hostId)))).toBe(true)
    expect(moves(() => sql.run(db.updateTable('host').set({ created_at: T0 }).where('id', '=', hostId)))).toBe(true)
    // What it does not measure: the same values written again (the collector does with every message),
    // its other columns, another host's intervals.
    addService(hostId, 'sshd', 1, MonitorState.On)
    seen = generationOf(hostId)
    expect(
      moves(() => sql.run(db.updateTable('service').set({ monitor: MonitorState.On, status_text: 'x' }).where('host_id', '=', hostId)))
    ).toBe(false)
    expect(
      moves(() =>
        sql.run(
          db.updateTable('host').set({ hostname: 'alpha-2', status: 1, created_at: T0, heartbeat_deadline_ms: 1 }).where('id', '=', hostId)
        )
      )
    ).toBe(false)
    expect(moves(() => addInterval(otherId, null, T0, T0 + HOUR))).toBe(false)
  })
})

describe("the hosts' counts of changes", () => {
  it('list every host once, and its rows read by id are the ones hosts() gives', () => {
    const alpha = addHost('alpha')
    const bravo = addHost('bravo')
    const before = t.store.uptime.hostGenerations()
    addInterval(bravo, null, T0, null)
    const generations = t.store.uptime.hostGenerations()
    expect([...generations.keys()].sort()).toEqual([alpha, bravo].sort())
    expect(generations.get(alpha)).toBe(before.get(alpha))
    expect(generations.get(bravo)).toBe(before.get(bravo)! + 1)
    const all = t.store.uptime.hosts()
    expect(t.store.uptime.hostsWithIds([bravo])).toEqual(all.filter((h) => h.id === bravo))
    expect(t.store.uptime.hostsWithIds([])).toEqual([])
  })
})
