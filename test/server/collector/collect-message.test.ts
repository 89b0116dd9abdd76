import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SecretBox } from '../../../src/server/auth/secret-box'
import { collectMessages, type CollectRequest } from '../../../src/server/collector/collect-message'
import { Ingest } from '../../../src/server/collector/ingest'
import type { Principal } from '../../../src/server/domain/permissions'
import { Store } from '../../../src/server/store/store'
import { asAgent, fixture } from '../../support/fixtures'
import { mountSmallDisk } from '../../support/small-disk'
import { refuseHostUpdate } from '../../support/refused-host-update'
import { tempStore, type TempStore } from '../../support/temp-store'
import { sqliteOf, testEngine } from '../../support/test-database'

const COLLECT_EVERYWHERE: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }

let t: TempStore
beforeEach(() => {
  t = tempStore()
})
afterEach(() => t.close())

const agentId = (i: number) => `c0${String(i).padStart(30, '0')}`
const request = (xml: Buffer, more: Partial<CollectRequest> = {}): CollectRequest => ({
  xml,
  principal: COLLECT_EVERYWHERE,
  nowMs: Date.now(),
  ...more
})
const heartbeat = (i: number, hostname?: string) => request(asAgent(fixture('02-status-heartbeat'), agentId(i), hostname))
const collect = (requests: CollectRequest[]) => collectMessages(t.ingest, requests)
const hostnames = () =>
  (t.store.sql.plain.prepare('SELECT hostname FROM host ORDER BY hostname').all() as { hostname: string }[]).map((r) => r.hostname)
const kinds = (outcomes: ReturnType<typeof collect>) => outcomes.map((o) => (o.kind === 'refused' ? o.status : o.kind))

describe('collectMessages (a batch in one transaction, one by one when that fails)', () => {
  it('stores every message of a batch and says how long each took', () => {
    const started = performance.now()
    const outcomes = collect([heartbeat(1, 'one'), heartbeat(2, 'two'), heartbeat(3, 'three')])
    const batchSeconds = (performance.now() - started) / 1000
    expect(kinds(outcomes)).toEqual(['stored', 'stored', 'stored'])
    // Each one's share of the batch: more than nothing, less than the whole call.
    for (const o of outcomes) expect(o.kind === 'stored' && o.seconds > 0 && o.seconds <= batchSeconds).toBe(true)
    expect(hostnames()).toEqual(['one', 'three', 'two'])
  })

  it('stores the others when one message fails while being stored, and nothing of the failed one', () => {
    // A fault inside the store, after the host row was inserted and before the message is complete.
    refuseHostUpdate(t.store, 'boom', 'boom is refused by a test trigger')
    const outcomes = collect([heartbeat(1, 'before'), heartbeat(2, 'boom'), heartbeat(3, 'after')])
    expect(kinds(outcomes)).toEqual(['stored', 'failed', 'stored'])
    expect(outcomes[1]).toMatchObject({ detail: expect.stringContaining('boom is refused by a test trigger') })
    // Neither the failed message's host row nor its services survive; the others are whole.
    expect(hostnames()).toEqual(['after', 'before'])
    const services = t.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM service').get() as { n: number }
    expect(services.n).toBe(2 * 11)
  })

  // A deferred foreign key and its pragma are SQLite's own tools (and its full disk below, a tmpfs under the SQLite file).
  it.skipIf(testEngine === 'postgres')(
    'stores each message again on its own when the batch commit fails, after forgetting what the batch wrote',
    () => {
      // A deferred foreign-key violation passes every statement and fails the batch's COMMIT (the
      // pragma lasts until the next commit or rollback, so it comes after the trigger's own). Alone,
      // with the pragma gone, the violation fails that message's own statement instead.
      t.store.sql.plain.exec(`CREATE TEMP TRIGGER orphan_group AFTER UPDATE ON host WHEN NEW.hostname = 'orphan'
      BEGIN INSERT INTO service_group (host_id, name) VALUES (999999, 'orphan'); END`)
      sqliteOf(t.store).pragma('defer_foreign_keys = ON')
      const outcomes = collect([heartbeat(1, 'first'), heartbeat(2, 'orphan'), request(Buffer.from('<not-monit/>')), heartbeat(3, 'third')])
      expect(kinds(outcomes)).toEqual(['stored', 'failed', 400, 'stored'])
      expect(outcomes[1]).toMatchObject({ detail: expect.stringMatching(/FOREIGN KEY/) })
      // The rolled-back batch had registered all three hosts, services and service names; the caches
      // forgot them, so the hosts stored again are whole (a remembered name id would break the insert).
      expect(hostnames()).toEqual(['first', 'third'])
      const services = t.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM service').get() as { n: number }
      expect(services.n).toBe(2 * 11)
    }
  )

  it("reads the batch's hosts together, and an agent's second message in the batch sees what its first one wrote", () => {
    const COLLECTED = 1795300306
    const heartbeatAt = (i: number, shift: number, hostname: string) =>
      request(
        asAgent(
          Buffer.from(
            fixture('02-status-heartbeat')
              .toString('latin1')
              .replaceAll(`<collected_sec>${COLLECTED}<`, `<collected_sec>${COLLECTED + shift}<`),
            'latin1'
          ),
          agentId(i),
          hostname
        )
      )
    expect(kinds(collect([heartbeatAt(1, 0, 'one')]))).toEqual(['stored'])
    // Agent 1 twice, the newer snapshot first: the older one, applied second, must find it and change no state.
    const outcomes = collect([heartbeatAt(1, 120, 'one'), heartbeatAt(2, 0, 'two'), heartbeatAt(1, 60, 'one'), heartbeatAt(3, 0, 'three')])
    expect(kinds(outcomes)).toEqual(['stored', 'stored', 'stored', 'stored'])
    expect(hostnames()).toEqual(['one', 'three', 'two'])
    const snapshot = t.store.sql.plain.prepare('SELECT snapshot_usec FROM host WHERE hostname = ?').get('one') as { snapshot_usec: number }
    expect(Math.floor(snapshot.snapshot_usec / 1_000_000)).toBe(COLLECTED + 120)
  })

  it('refuses what is no Monit message and hosts the caller may not report for, storing the rest of the batch', () => {
    const onlyHost99: Principal = { ...COLLECT_EVERYWHERE, everyHost: 0, perHost: new Map([[99, 1]]) }
    const outcomes = collect([request(Buffer.from('hello')), { ...heartbeat(1, 'foreign'), principal: onlyHost99 }, heartbeat(2, 'mine')])
    expect(kinds(outcomes)).toEqual([400, 403, 'stored'])
    expect(hostnames()).toEqual(['mine'])
  })
})

// Mounting a tmpfs needs root: CI has it (and so fails loudly without it); a developer's machine may not.
describe.skipIf(process.getuid?.() !== 0 && !process.env.CI)('collectMessages on a full disk (a real tmpfs filled up)', () => {
  it.skipIf(testEngine === 'postgres')(
    'answers each message "unavailable" with SQLite\'s code, stores nothing, and stores again once space is back',
    () => {
      const disk = mountSmallDisk(8)
      const store = new Store(join(disk.dir, 'test.sqlite'))
      try {
        const ingest = new Ingest(store, SecretBox.fromKeyFile(join(disk.dir, 'secret.key')))
        const hostCount = () => (store.sql.plain.prepare('SELECT COUNT(*) AS n FROM host').get() as { n: number }).n
        disk.fill()
        const full = { kind: 'unavailable', code: 'SQLITE_FULL', message: 'database or disk is full' }
        expect(collectMessages(ingest, [heartbeat(1, 'one'), request(Buffer.from('hello')), heartbeat(2, 'two')])).toEqual([
          full,
          expect.objectContaining({ kind: 'refused', status: 400 }),
          full
        ])
        expect(collectMessages(ingest, [heartbeat(3, 'three')])).toEqual([full])
        expect(hostCount()).toBe(0)
        disk.free()
        expect(kinds(collectMessages(ingest, [heartbeat(1, 'one'), heartbeat(2, 'two')]))).toEqual(['stored', 'stored'])
        expect(hostCount()).toBe(2)
      } finally {
        store.close()
        disk.unmount()
      }
    }
  )
})
