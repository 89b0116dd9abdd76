// Migration 017 on a database of version 15 holding a group membership: every membership from before
// was an administrator's, so it is marked assigned and not declared (an agent that declares nothing must
// not remove it). On SQLite through the migration runner; on PostgreSQL its migrations in turn.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase } from '../../../src/server/store/database'
import { postgresMigrations } from '../../../src/server/store/postgres/migrations'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { testEngine, withDatabase } from '../../support/test-database'

const BEFORE = 15
const SEED = [
  "INSERT INTO host (agent_id, hostname, created_at) VALUES ('a1', 'alpha', 0)",
  "INSERT INTO host_group (name) VALUES ('web')",
  'INSERT INTO host_group_member (group_id, host_id) SELECT g.id, h.id FROM host_group g, host h'
]

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function migratedMembers(): Record<string, unknown>[] {
  return testEngine === 'sqlite' ? migratedOnSqlite() : migratedOnPostgres()
}

function migratedOnSqlite(): Record<string, unknown>[] {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-declared-migration-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'old.sqlite')
  const older = openDatabase(file, undefined, BEFORE).sqlite
  for (const statement of SEED) older.prepare(statement).run()
  older.close()
  const { sqlite } = openDatabase(file)
  cleanups.push(() => sqlite.close())
  return sqlite.prepare('SELECT * FROM host_group_member').all() as Record<string, unknown>[]
}

function migratedOnPostgres(): Record<string, unknown>[] {
  const cluster = process.env.OVERSEER_TEST_POSTGRES!
  const name = `t_declared_migration_${process.pid}`
  const admin = new SyncConnection(withDatabase(cluster, 'postgres'))
  admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  admin.query(`CREATE DATABASE ${name}`)
  const db = new SyncConnection(withDatabase(cluster, name))
  cleanups.push(() => {
    db.close()
    admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    admin.close()
  })
  for (const m of postgresMigrations.filter((m) => m.version <= BEFORE)) db.query(m.sql)
  for (const statement of SEED) db.query(statement)
  for (const m of postgresMigrations.filter((m) => m.version > BEFORE)) db.query(m.sql)
  return db.query('SELECT * FROM host_group_member').rows as Record<string, unknown>[]
}

it('marks the memberships from before as assigned by an administrator, none as declared by an agent', () => {
  const members = migratedMembers()
  expect(members).toHaveLength(1)
  expect(Number(members[0].assigned)).toBe(1)
  expect(Number(members[0].declared)).toBe(0)
})
