// `overseer migrate` on databases filled by the real ingest (the collector benchmark's traffic) and the
// repositories: SQLite → SQLite always, SQLite → PostgreSQL → SQLite when OVERSEER_TEST_POSTGRES is set.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentId, buildTraffic, xmlOf } from '../../../bench/collector-payloads'
import { Rollup } from '../../../src/server/history/rollup'
import { Store } from '../../../src/server/store/store'
import { TableRows } from '../../../src/server/store/table-rows'
import { migrateDatabase, MigrationError } from '../../../src/server/tools/migrate-database'
import { SERVER_JS } from '../../support/built-server'
import { hostOfAgent } from '../../support/hosts'
import { tempStore, type TempStore } from '../../support/temp-store'
import { databaseFor, dropDatabaseOf } from '../../support/test-database'
import { addUserWith } from '../../support/users'

const AGENTS = 6
const MESSAGES = 72
/** The benchmark's payloads start at the capture's end and move 1,000 s per message of an agent. */
const CAPTURE_END_SEC = 1795301000
const PERMISSION_VIEW = 2
/** Tables this small are compared row by row whole; larger ones by count and their first rows. */
const SAMPLE_ROWS = 300

let source: TempStore
let dir: string

beforeAll(() => {
  source = tempStore({ sqlite: true })
  dir = mkdtempSync(join(tmpdir(), 'overseer-migrate-'))
  fill(source)
})

afterAll(() => {
  source.close()
  rmSync(dir, { recursive: true, force: true })
})

function fill(s: TempStore): void {
  const traffic = buildTraffic(AGENTS, MESSAGES)
  const atSeq = (seq: number) => (CAPTURE_END_SEC + seq * 1000) * 1000
  for (const payload of traffic.warmup) s.post(xmlOf(payload), atSeq(0))
  traffic.messages.forEach((payload, i) => s.post(xmlOf(payload), atSeq(1 + Math.floor(i / AGENTS))))
  const lastSec = atSeq(1 + MESSAGES / AGENTS) / 1000
  new Rollup(s.store.history, s.store.sql).runToIdle(lastSec + 2 * 3600)

  const { store } = s
  const hostIds = [0, 1, 2].map((agent) => hostOfAgent(store, agentId(agent))!.id)
  const web = store.groups.create('web')
  store.groups.addHosts(web, hostIds.slice(0, 2))
  store.groups.create('db')
  addUserWith(store, 'viewer', PERMISSION_VIEW, { hosts: [hostIds[2]], groups: [web] })
  const channel = store.alertChannels.create(
    {
      name: 'ops hook',
      type: 'webhook',
      enabled: true,
      settings: '{"url":"http://127.0.0.1:9/"}',
      subject_template: null,
      body_template: 'x'
    },
    lastSec
  )
  store.alertRules.create(
    {
      name: 'disks',
      enabled: true,
      servicePattern: '*',
      eventTypes: 0,
      states: 1,
      heartbeat: true,
      groupWaitSec: 30,
      reminderMin: 60,
      recovery: true,
      channelIds: [channel],
      hostIds: [hostIds[0]],
      groupIds: [web],
      serviceTypes: [5]
    },
    lastSec
  )
  store.alertMutes.create(
    { hostId: hostIds[1], serviceNameId: null, until: lastSec + 3600, reason: 'maintenance', createdBy: 'viewer' },
    lastSec
  )
  store.serverSettings.update({ sessionTimeoutSec: 7200 })
  store.sessions.create({
    id: 'session-1',
    user_id: null,
    csrf_token: 't',
    csrf_protection: 1,
    attributes: '{}',
    saved_url: null,
    created_at: lastSec,
    last_access: lastSec
  })
}

interface TableSnapshot {
  count: number
  rows: unknown[]
}

/** A host's count of changes to what the uptime list measures (migration 023): the copy's own inserts of its children move it, and only its moves mean anything. */
const CHANGE_COUNTERS: Record<string, string> = { host_uptime: 'generation' }

/** Every table's count and first rows in primary-key order, blobs as hex (each engine returns its own byte type), change counters left out. */
function snapshot(location: string): Record<string, TableSnapshot> {
  const store = new Store(location)
  try {
    const tables = new TableRows(store.sql)
    const result: Record<string, TableSnapshot> = {}
    for (const shape of tables.tables()) {
      const rows = tables.batch(shape, undefined, SAMPLE_ROWS).map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(([k]) => CHANGE_COUNTERS[shape.name] !== k)
            .map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v])
        )
      )
      result[shape.name] = { count: tables.count(shape.name), rows }
    }
    return result
  } finally {
    store.close()
  }
}

const sqliteFile = (name: string) => join(dir, `${name}.sqlite`)

describe('overseer migrate', () => {
  it('copies every table of a populated SQLite database into a new SQLite file, row for row', () => {
    const report = migrateDatabase({ from: source.store.location, to: sqliteFile('copy'), batchRows: 50 })

    const before = snapshot(source.store.location)
    expect(snapshot(sqliteFile('copy'))).toEqual(before)
    // The fill reached every table the benchmark and the repositories write.
    for (const table of [
      'host',
      'service',
      'statistic',
      'event',
      'history_raw',
      'history_minute',
      'user',
      'user_role',
      'role_row_host',
      'role_row_group',
      'host_group_member',
      'alert_rule_channel',
      'alert_rule_service_type',
      'alert_mute',
      'session'
    ]) {
      expect(before[table].count, table).toBeGreaterThan(0)
    }
    expect(before.statistic.count).toBeGreaterThan(SAMPLE_ROWS) // batched over many batches of 50
    expect(report.rows).toBe(Object.values(before).reduce((sum, t) => sum + t.count, 0))
  })

  it('refuses a target that holds data, and replaces it with --force', () => {
    const target = sqliteFile('occupied')
    const occupied = new Store(target)
    occupied.groups.create('somebody else')
    occupied.close()

    expect(() => migrateDatabase({ from: source.store.location, to: target })).toThrow(MigrationError)
    expect(() => migrateDatabase({ from: source.store.location, to: target })).toThrow(/already holds data \(host_group\).*--force/)
    expect(snapshot(target).host_group.rows).toEqual([{ id: 1, name: 'somebody else' }])

    migrateDatabase({ from: source.store.location, to: target, force: true })
    expect(snapshot(target)).toEqual(snapshot(source.store.location))
  })

  it.skipIf(!process.env.OVERSEER_TEST_POSTGRES)('moves SQLite to PostgreSQL and back without losing or changing a row', () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'overseer-migrate-pg-'))
    const postgres = databaseFor(pgDir)!
    try {
      migrateDatabase({ from: source.store.location, to: postgres })
      migrateDatabase({ from: postgres, to: sqliteFile('back') })

      const before = snapshot(source.store.location)
      expect(snapshot(postgres)).toEqual(before)
      expect(snapshot(sqliteFile('back'))).toEqual(before)

      // PostgreSQL's identity counters moved past the copied ids: a new group gets the next id.
      const store = new Store(postgres)
      try {
        expect(store.groups.create('after the move')).toBe(Math.max(...before.host_group.rows.map((g) => (g as { id: number }).id)) + 1)
      } finally {
        store.close()
      }
    } finally {
      dropDatabaseOf(pgDir)
      rmSync(pgDir, { recursive: true, force: true })
    }
  })

  it.skipIf(!existsSync(SERVER_JS))(
    'runs as `server.js migrate`: exit 0 copied, 1 refused, 2 bad arguments',
    () => {
      const migrate = (...args: string[]) => spawnSync(process.execPath, [SERVER_JS, 'migrate', ...args], { encoding: 'utf8' })
      const target = `sqlite:${sqliteFile('cli')}`

      const copied = migrate('--from', `sqlite:${source.store.location}`, '--to', target)
      expect(copied.stderr).toMatch(/host: \d+ \/ \d+ rows \(100 %\)/)
      expect(copied.stderr).toMatch(/copied [\d,]+ rows in \d+ tables .* rows\/s\); counts verified/)
      expect(copied.status).toBe(0)

      const refused = migrate('--from', `sqlite:${source.store.location}`, '--to', target)
      expect(refused.stderr).toMatch(/already holds data/)
      expect(refused.status).toBe(1)
      expect(migrate('--from', `sqlite:${source.store.location}`, '--to', target, '--force').status).toBe(0)

      for (const [args, message] of [
        [['--to', target], /--from is missing/],
        [['--from', `sqlite:${source.store.location}`], /--to is missing/],
        [['--from', source.store.location, '--to', target], /expected sqlite:PATH or postgres/],
        [['--from', `sqlite:${join(dir, 'none.sqlite')}`, '--to', target], /no such file/],
        [['--from', `sqlite:${source.store.location}`, '--to', target, '--batch-rows', '0'], /positive whole number/],
        [['--from', `sqlite:${source.store.location}`, '--to', target, '--fast'], /unknown argument --fast/]
      ] as const) {
        const bad = migrate(...args)
        expect(bad.stderr, args.join(' ')).toMatch(message)
        expect(bad.stderr).toMatch(/usage: overseer migrate/)
        expect(bad.status).toBe(2)
      }
      // Nine cold starts of the built server one after another: 21 s on a machine busy with the whole suite.
    },
    60_000
  )

  it.skipIf(!existsSync(SERVER_JS) || !process.env.OVERSEER_TEST_POSTGRES)(
    'runs as `server.js migrate` to and from PostgreSQL',
    () => {
      const pgDir = mkdtempSync(join(tmpdir(), 'overseer-migrate-pg-'))
      const postgres = databaseFor(pgDir)!
      try {
        for (const [from, to] of [
          [`sqlite:${source.store.location}`, postgres],
          [postgres, `sqlite:${sqliteFile('cli-back')}`]
        ]) {
          const run = spawnSync(process.execPath, [SERVER_JS, 'migrate', '--from', from, '--to', to], { encoding: 'utf8' })
          expect(run.stderr).toMatch(/counts verified/)
          expect(run.status).toBe(0)
        }
        expect(snapshot(sqliteFile('cli-back'))).toEqual(snapshot(source.store.location))
      } finally {
        dropDatabaseOf(pgDir)
        rmSync(pgDir, { recursive: true, force: true })
      }
    },
    60_000
  )
})
