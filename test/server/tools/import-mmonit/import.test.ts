// `overseer import-mmonit` on M/Monit databases of our own (test/support/mmonit-database.ts), into a real
// store on the test engine: what the generator wrote is read back through the store, field by field.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../../../src/server/auth/secret-box'
import { verifyPassword } from '../../../../src/server/auth/password-hash'
import { blockStart, HOUR, slotOf, timeOfSlot } from '../../../../src/server/domain/history-levels'
import { decodeBlock, encodeBlock } from '../../../../src/server/history/block-codec'
import { readSeries } from '../../../../src/server/history/series-reader'
import { Store } from '../../../../src/server/store/store'
import { importMMonit, ImportError, type ImportRequest } from '../../../../src/server/tools/import-mmonit/import-database'
import {
  agentIdOf,
  aggregateTime,
  aggregateValue,
  createMMonitSqlite,
  eventTime,
  GENERATED_USERS,
  hostNameOf,
  sampleTime,
  sampleValue,
  serviceNameOf,
  SMALL_SHAPE
} from '../../../support/mmonit-database'
import { serviceState } from '../../../support/service-state'
import { dropDatabaseOf, storeLocation } from '../../../support/test-database'

const shape = SMALL_SHAPE
let root: string
let source: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'overseer-import-mmonit-'))
  source = join(root, 'mmonit.db')
  createMMonitSqlite(source, shape)
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

const targets: string[] = []
afterEach(() => {
  for (const dir of targets.splice(0)) dropDatabaseOf(dir)
})

/** A fresh target: its data folder (secret.key) and its database on the test engine. */
function newTarget(): { dir: string; to: string; keyFile: string } {
  const dir = mkdtempSync(join(root, 'target-'))
  targets.push(dir)
  return { dir, to: storeLocation(dir, 'overseer.sqlite'), keyFile: join(dir, 'secret.key') }
}

function run(target: { to: string; keyFile: string }, more: Partial<ImportRequest> = {}) {
  return importMMonit({ from: `sqlite:${source}`, ...target, history: true, dryRun: false, merge: false, batchRows: 25, ...more })
}

function withStore<T>(to: string, read: (store: Store) => T): T {
  const store = new Store(to)
  try {
    return read(store)
  } finally {
    store.close()
  }
}

// Quoted: `user` unquoted is PostgreSQL's current user, one row.
const count = (store: Store, table: string) => Number(store.sql.rows<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`)[0].n)
const tableCounts = (store: Store) =>
  Object.fromEntries(
    [
      'host',
      'service',
      'service_name',
      'statistic',
      'service_group',
      'service_group_member',
      'host_group',
      'host_group_member',
      'event',
      'event_note',
      'user',
      'user_role',
      'history_minute',
      'history_hour',
      'history_day'
    ].map((t) => [t, count(store, t)])
  )

describe('import-mmonit into an empty store', () => {
  it('imports hosts, services, groups, users, events and history, and says what it left out', async () => {
    const target = newTarget()
    const report = await run(target)
    expect(report.schemaVersion).toBe(15)
    const byName = Object.fromEntries(report.steps.map((s) => [s.name, s]))
    const services = shape.hosts * shape.servicesPerHost
    expect(byName.hosts.imported).toBe(shape.hosts)
    expect(byName.services.imported).toBe(services)
    expect(byName.events.imported).toBe(services * shape.eventsPerService)
    expect(byName.users.warnings).toEqual([
      "user admin still has M/Monit's default password (swordfish): flagged unsafe, change it",
      "user monit still has M/Monit's default password (monit): flagged unsafe, change it"
    ])
    expect(byName.history.skipped).toEqual([
      { what: `${shape.hosts} text samples (statistics_string)`, why: 'history keeps numbers only', rows: shape.hosts }
    ])

    const secrets = SecretBox.fromKeyFile(target.keyFile)
    withStore(target.to, (store) => {
      const counts = tableCounts(store)
      expect(counts).toMatchObject({
        host: shape.hosts,
        service: services,
        statistic: services,
        host_group: 2,
        event: services * shape.eventsPerService
      })
      expect(counts.event_note).toBe(shape.hosts)
      expect(counts.host_group_member).toBe(shape.hosts + Math.ceil(shape.hosts / 2))

      const first = store.sql.rows<Record<string, unknown>>('SELECT * FROM host WHERE agent_id = ?', [agentIdOf(1)])[0]
      expect(first).toMatchObject({
        hostname: hostNameOf(1),
        description: 'the first host',
        keepname: 1,
        ipaddr_in: '10.0.0.1',
        port_in: 2812,
        ipaddr_out: '192.0.2.1',
        port_out: 2813,
        ssl_out: -1,
        agent_user: 'monit',
        skew: 5,
        poll: 30,
        control_file: '/etc/monitrc',
        agent_version: '5.34.0',
        platform_name: 'Linux',
        cpu_count: 4,
        memory_kb: 8_000_000,
        created_at: shape.now - 86400 * 30,
        events_count: shape.servicesPerHost * shape.eventsPerService
      })
      // Sealed at rest, opened with the data folder's key.
      expect(first.agent_password).not.toBe('secret-1')
      expect(secrets.open(String(first.agent_password))).toBe('secret-1')
      const second = store.sql.rows<Record<string, unknown>>('SELECT * FROM host WHERE agent_id = ?', [agentIdOf(2)])[0]
      expect(second).toMatchObject({ ipaddr_out: '', port_out: -1, skew: null, description: '' })

      const service = store.sql.rows<Record<string, unknown>>(
        'SELECT s.* FROM service s JOIN host h ON h.id = s.host_id WHERE h.agent_id = ? AND s.name = ?',
        [agentIdOf(2), serviceNameOf(2)]
      )[0]
      expect(service).toMatchObject({
        type: 3,
        monitor: 1,
        monitor_mode: 2,
        status: 0,
        status_text: 'OK',
        events_count: shape.eventsPerService
      })

      const groups = store.groups.list().map((g) => g.name)
      expect(groups.sort()).toEqual(['all hosts', 'web servers'])

      // The last event of host 3's first service: the active error, noted and dismissed.
      const active = store.sql.rows<Record<string, unknown>>(
        'SELECT e.* FROM event e JOIN host h ON h.id = e.host_id WHERE h.agent_id = ? AND e.active = 1',
        [agentIdOf(3)]
      )
      expect(active).toHaveLength(1)
      const e = shape.eventsPerService - 1
      expect(active[0]).toMatchObject({
        service_name: 'system',
        service_type: 5,
        class: 2,
        state: 1,
        action: 1,
        date: eventTime(shape, 0, e),
        message: `cpu usage of system on host 3 (#${e})`,
        dismissed: 1,
        has_note: 1
      })
      const note = store.sql.rows<Record<string, unknown>>('SELECT * FROM event_note WHERE event_id = ?', [active[0].id])[0]
      expect(note).toMatchObject({ uname: 'admin', message: 'looking into host 3', date: shape.now - 30 })
      expect(note.user_id).toBe(store.users.findByName('admin')!.id)

      // The collector continues from M/Monit's last state of each class.
      const last = store.sql.rows<Record<string, unknown>>(
        'SELECT st.state FROM event_state st JOIN host h ON h.id = st.host_id WHERE h.agent_id = ? AND st.service_name = ? AND st.class = 2',
        [agentIdOf(3), 'system']
      )
      expect(last).toEqual([{ state: 1 }])
    })
  })

  it('keeps passwords as MD5 until the next login, flagged unsafe, with M/Monit roles mapped', async () => {
    const target = newTarget()
    await run(target, { history: false })
    const store = new Store(target.to)
    try {
      for (const u of GENERATED_USERS) {
        const creds = store.users.credentialsOf(u.uname)!
        expect(creds.password_hash).toMatch(/^md5\$[0-9a-f]{32}$/)
        expect(creds.password_unsafe).toBe(1)
        expect(await verifyPassword(u.password, creds.password_hash)).toBe(true)
        expect(await verifyPassword(`${u.password}x`, creds.password_hash)).toBe(false)
      }
      expect(store.users.isAdmin(store.users.findByName('admin')!.id)).toBe(true)
      expect(store.users.isAdmin(store.users.findByName('carol')!.id)).toBe(false)
      expect(store.users.roleIdsOf(store.users.findByName('monit')!.id).sort()).toEqual([2, 3])
      expect(store.users.findByName('carol')).toMatchObject({ email: 'carol@example.net', fullname: 'carol user' })
    } finally {
      store.close()
    }
  })

  it('folds raw samples and every roll-up level into the history levels a chart reads', async () => {
    const target = newTarget()
    await run(target)
    withStore(target.to, (store) => {
      const host = store.sql.rows<{ id: number }>('SELECT id FROM host WHERE agent_id = ?', [agentIdOf(1)])[0].id
      // Series of host 1's first service: M/Monit statistics id 1.
      const statId = store.history.series.seriesOfHost(host, { service: 'system' })[0].id
      const rolled = store.history.settings.progress().rolledUntil
      expect(rolled.minute).toBe(blockStart('minute', shape.now - SAMPLE_STEP) + HOUR)

      // Minutes: the raw samples (two per minute) where there are some, M/Monit's 1-minute averages before.
      const from = sampleTime(shape, 0)
      const minutes = readSeries(store.history, host, [statId], 'minute', from, shape.now, 60).get(statId)!
      expect(minutes).toHaveLength(shape.samplesPerSeries / 2)
      expect(minutes[0]).toEqual({
        time: from,
        count: 2,
        min: Math.min(sampleValue(1, 0), sampleValue(1, 1)),
        max: Math.max(sampleValue(1, 0), sampleValue(1, 1)),
        sum: expect.closeTo(sampleValue(1, 0) + sampleValue(1, 1), 9)
      })
      const oneMinute = aggregateTime(shape, 'statistics_aggregate_1m', 0)
      const before = readSeries(store.history, host, [statId], 'minute', oneMinute, oneMinute + 60, 60).get(statId)!
      expect(before).toEqual([
        {
          time: oneMinute,
          count: 1,
          min: aggregateValue(1, 'statistics_aggregate_1m', 0),
          max: aggregateValue(1, 'statistics_aggregate_1m', 0),
          sum: aggregateValue(1, 'statistics_aggregate_1m', 0)
        }
      ])

      // A year back, daily: M/Monit's daily averages.
      const day = aggregateTime(shape, 'statistics_aggregate_1d', 0)
      const days = readSeries(store.history, host, [statId], 'day', day, day + 86400, 86400).get(statId)!
      expect(days).toEqual([
        {
          time: day,
          count: 1,
          min: aggregateValue(1, 'statistics_aggregate_1d', 0),
          max: aggregateValue(1, 'statistics_aggregate_1d', 0),
          sum: aggregateValue(1, 'statistics_aggregate_1d', 0)
        }
      ])
    })
  })
})

const SAMPLE_STEP = 30

describe('import-mmonit run again', () => {
  it('adds nothing the second time (a crash, or a re-run to pick up what is new, converges)', async () => {
    const target = newTarget()
    await run(target)
    const once = withStore(target.to, tableCounts)
    const minuteBlocks = withStore(target.to, (store) =>
      store.sql.rows('SELECT start, statistic_id, buckets FROM history_minute ORDER BY start, statistic_id')
    )
    const report = await run(target)
    expect(withStore(target.to, tableCounts)).toEqual(once)
    expect(
      withStore(target.to, (store) =>
        store.sql.rows('SELECT start, statistic_id, buckets FROM history_minute ORDER BY start, statistic_id')
      )
    ).toEqual(minuteBlocks)
    expect(report.steps.find((s) => s.name === 'events')!.imported).toBe(once.event)
  })

  it('converges after a crash halfway through the events: the re-run needs no --merge', async () => {
    const clean = newTarget()
    await run(clean)
    const expected = withStore(clean.to, tableCounts)

    const target = newTarget()
    let step = ''
    const crashing = {
      table: (name: string) => {
        step = name
      },
      // The third page of events (7 rows a page) is written, then the process dies.
      rows: (read: number) => {
        if (step === 'events' && read === 21) throw new Error('killed')
      },
      tableDone: () => {}
    }
    await expect(run(target, { progress: crashing, batchRows: 7 })).rejects.toThrow('killed')
    const partial = withStore(target.to, tableCounts)
    expect(partial.event).toBeGreaterThan(0)
    expect(partial.event).toBeLessThan(expected.event)
    await run(target)
    expect(withStore(target.to, tableCounts)).toEqual(expected)
  })

  it('a second run adds what the first left out, once', async () => {
    const target = newTarget()
    await run(target, { since: shape.now - 1800, history: false })
    const first = withStore(target.to, (store) => count(store, 'event'))
    await run(target, { history: false })
    const all = shape.hosts * shape.servicesPerHost * shape.eventsPerService
    expect(first).toBeLessThan(all)
    withStore(target.to, (store) => {
      expect(count(store, 'event')).toBe(all)
      expect(count(store, 'event_note')).toBe(shape.hosts)
      const counted = store.sql.rows<{ n: number }>('SELECT sum(events_count) AS n FROM host')[0].n
      expect(Number(counted)).toBe(all)
    })
  })
})

describe('import-mmonit from schema 26 (M/Monit 4.x)', () => {
  it('reads its integer host status and the columns it adds', async () => {
    const file = join(root, 'mmonit-26.db')
    createMMonitSqlite(file, { ...shape, version: 26 })
    const target = newTarget()
    const report = await run(target, { from: `sqlite:${file}` })
    expect(report.schemaVersion).toBe(26)
    withStore(target.to, (store) => {
      expect(tableCounts(store)).toMatchObject({
        host: shape.hosts,
        host_group_member: shape.hosts + Math.ceil(shape.hosts / 2),
        event: shape.hosts * shape.servicesPerHost * shape.eventsPerService
      })
      const host = store.sql.rows<Record<string, unknown>>('SELECT * FROM host WHERE agent_id = ?', [agentIdOf(2)])[0]
      expect(host).toMatchObject({ hostname: hostNameOf(2), agent_uptime: 2 * 86400, platform_machine: 'x86_64' })
    })
  })
})

describe('import-mmonit refusals', () => {
  it('refuses a schema version it does not know', async () => {
    const file = join(root, 'mmonit-14.db')
    createMMonitSqlite(file, { ...shape, hosts: 1 })
    const Database = (await import('better-sqlite3')).default
    const db = new Database(file)
    db.exec('UPDATE mmonit SET schemaversion = 14')
    db.close()
    const target = newTarget()
    await expect(run(target, { from: `sqlite:${file}` })).rejects.toThrow(
      new ImportError('M/Monit schema version 14 is not supported: this import reads versions 15 and 26 (M/Monit 3.7 and 4.x)')
    )
  })

  it('refuses a target holding data unless --merge, which keeps it and matches hosts by Monit id', async () => {
    const target = newTarget()
    withStore(target.to, (store) => {
      const id = store.hosts.register(agentIdOf(2), 'renamed-by-overseer', 1000).id
      store.hosts.update(id, { description: 'set in Overseer' })
      store.groups.create('web servers')
    })
    await expect(run(target)).rejects.toThrow(/the target already holds data \(1 hosts, 1 host groups\): pass --merge/)
    expect(withStore(target.to, (store) => count(store, 'service'))).toBe(0)

    await run(target, { merge: true })
    withStore(target.to, (store) => {
      expect(count(store, 'host')).toBe(shape.hosts)
      expect(count(store, 'host_group')).toBe(2)
      const kept = store.sql.rows<Record<string, unknown>>('SELECT * FROM host WHERE agent_id = ?', [agentIdOf(2)])[0]
      // Overseer's own values stay; what it had not set comes from M/Monit.
      expect(kept).toMatchObject({ hostname: 'renamed-by-overseer', description: 'set in Overseer', poll: 30, platform_name: 'Linux' })
      expect(count(store, 'service')).toBe(shape.hosts * shape.servicesPerHost)
    })
  })

  it("--merge keeps the history Overseer has of a host, adding M/Monit's samples beside it", async () => {
    const target = newTarget()
    const hour = blockStart('minute', shape.now - 1)
    const own = { time: shape.now - 3000, count: 2, min: 1, max: 3, sum: 4 }
    withStore(target.to, (store) => {
      const host = store.hosts.register(agentIdOf(1), hostNameOf(1), 1000).id
      const service = store.services.insert(host, serviceState(store, 'system', 0))
      const statistic = store.history.series.register(service, 1, '')
      store.history.blocks.put(
        'minute',
        hour,
        statistic,
        encodeBlock([own], (t) => slotOf('minute', hour, t))
      )
    })
    // M/Monit's last half hour only: the block's first half is Overseer's.
    await run(target, { merge: true, since: shape.now - 1800 })
    withStore(target.to, (store) => {
      const host = store.sql.rows<{ id: number }>('SELECT id FROM host WHERE agent_id = ?', [agentIdOf(1)])[0].id
      const statistic = store.history.series.seriesOfHost(host, { service: 'system' })[0].id
      const buckets = decodeBlock(store.history.blocks.get('minute', hour, statistic)!, (slot) => timeOfSlot('minute', hour, slot))
      expect(buckets[0]).toEqual(own)
      expect(buckets).toHaveLength(1 + 30)
      expect(buckets.at(-1)).toMatchObject({ time: shape.now - 60, count: 2 })
    })
  })

  it('--dry-run counts what it would read and writes nothing', async () => {
    const target = newTarget()
    // M/Monit's own spelling of its database (server.xml's Realm url), options and all.
    const report = await run(target, { dryRun: true, from: `sqlite://${source}?synchronous=normal&journal_mode=wal` })
    expect(report.dryRun).toBe(true)
    expect(report.steps.find((s) => s.name === 'hosts')).toMatchObject({ expected: shape.hosts, imported: 0 })
    expect(report.steps.find((s) => s.name === 'events')!.expected).toBe(shape.hosts * shape.servicesPerHost * shape.eventsPerService)
    withStore(target.to, (store) => expect(count(store, 'host') + count(store, 'user') + count(store, 'event')).toBe(0))
  })

  it('--since leaves older events and samples behind, --no-history every sample', async () => {
    const target = newTarget()
    const since = shape.now - 1800
    const report = await run(target, { since, history: false })
    expect(report.steps.map((s) => s.name)).not.toContain('history')
    withStore(target.to, (store) => {
      const dates = store.sql.rows<{ date: number }>('SELECT date FROM event').map((e) => e.date)
      expect(dates.length).toBeGreaterThan(0)
      expect(Math.min(...dates)).toBeGreaterThanOrEqual(since)
      expect(count(store, 'history_minute') + count(store, 'statistic')).toBe(0)
    })
  })
})
