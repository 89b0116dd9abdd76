import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectMessages, defaultCollectorLimits, type CollectRequest } from '../../../src/server/collector/collect-message'
import type { Principal } from '../../../src/server/domain/permissions'
import { asAgent, fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'

const COLLECT_EVERYWHERE: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }

let t: TempStore
beforeEach(() => {
  t = tempStore()
})
afterEach(() => t.close())

const agentId = (i: number) => `c0${String(i).padStart(30, '0')}`
const request = (xml: Buffer, more: Partial<CollectRequest> = {}): CollectRequest =>
  ({ body: gzipSync(xml), contentEncoding: 'gzip', principal: COLLECT_EVERYWHERE, nowMs: Date.now(), ...more })
const heartbeat = (i: number, hostname?: string) => request(asAgent(fixture('02-status-heartbeat'), agentId(i), hostname))
const collect = (requests: CollectRequest[]) => collectMessages(t.ingest, defaultCollectorLimits, requests)
const hostnames = () => (t.store.sql.sqlite.prepare('SELECT hostname FROM host ORDER BY hostname').all() as { hostname: string }[])
  .map((r) => r.hostname)
const kinds = (outcomes: ReturnType<typeof collect>) => outcomes.map((o) => (o.kind === 'refused' ? o.status : o.kind))

describe('collectMessages (a batch in one transaction)', () => {
  it('stores every message of a batch and says how long each took', () => {
    const outcomes = collect([heartbeat(1, 'one'), heartbeat(2, 'two'), heartbeat(3, 'three')])
    expect(kinds(outcomes)).toEqual(['stored', 'stored', 'stored'])
    for (const o of outcomes) expect(o.kind === 'stored' && o.seconds > 0 && o.seconds < 5).toBe(true)
    expect(hostnames()).toEqual(['one', 'three', 'two'])
  })

  it('undoes only the message that fails while being stored: its savepoint, not the batch', () => {
    // A fault inside the store, after the host row was inserted and before the message is complete.
    t.store.sql.sqlite.exec(`CREATE TEMP TRIGGER fail_boom BEFORE UPDATE ON host WHEN NEW.hostname = 'boom'
      BEGIN SELECT RAISE(ABORT, 'boom is refused by a test trigger'); END`)
    const outcomes = collect([heartbeat(1, 'before'), heartbeat(2, 'boom'), heartbeat(3, 'after')])
    expect(kinds(outcomes)).toEqual(['stored', 'failed', 'stored'])
    expect(outcomes[1]).toMatchObject({ detail: expect.stringContaining('boom is refused by a test trigger') })
    // Neither the failed message's host row nor its services survive; the others are whole.
    expect(hostnames()).toEqual(['after', 'before'])
    const services = t.store.sql.sqlite.prepare('SELECT COUNT(*) AS n FROM service').get() as { n: number }
    expect(services.n).toBe(2 * 11)
  })

  it('answers failed for the whole batch when its commit fails, and stores the next batch in full', () => {
    // A deferred foreign-key violation passes every statement and fails the COMMIT (the pragma lasts
    // until the next commit, so it comes after the trigger's own).
    t.store.sql.sqlite.exec(`CREATE TEMP TRIGGER orphan_group AFTER UPDATE ON host WHEN NEW.hostname = 'orphan'
      BEGIN INSERT INTO service_group (host_id, name) VALUES (999999, 'orphan'); END`)
    t.store.sql.sqlite.pragma('defer_foreign_keys = ON')
    const refused = request(Buffer.from('<not-monit/>'))
    const outcomes = collect([heartbeat(1, 'first'), heartbeat(2, 'orphan'), refused])
    expect(kinds(outcomes)).toEqual(['failed', 'failed', 400])
    expect(outcomes[0]).toMatchObject({ detail: expect.stringMatching(/FOREIGN KEY/) })
    expect(hostnames()).toEqual([])

    // The caches forgot what the rolled-back batch wrote (hosts, services, service name ids): all is written again.
    t.store.sql.sqlite.exec('DROP TRIGGER orphan_group')
    expect(kinds(collect([heartbeat(1, 'first'), heartbeat(2, 'second')]))).toEqual(['stored', 'stored'])
    expect(hostnames()).toEqual(['first', 'second'])
    const services = t.store.sql.sqlite.prepare('SELECT COUNT(*) AS n FROM service').get() as { n: number }
    expect(services.n).toBe(2 * 11)
  })

  it('refuses bad bodies and foreign hosts before or without touching the store', () => {
    const onlyHost99: Principal = { ...COLLECT_EVERYWHERE, everyHost: 0, perHost: new Map([[99, 1]]) }
    const outcomes = collect([
      request(Buffer.from('hello')),
      { ...heartbeat(1), body: Buffer.from('not gzip') },
      { ...heartbeat(2), contentEncoding: 'br' },
      { ...heartbeat(3), principal: onlyHost99 }
    ])
    expect(kinds(outcomes)).toEqual([400, 400, 415, 403])
    expect(hostnames()).toEqual([])
  })
})
