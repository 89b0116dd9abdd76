// Migration 011 on a database of version 10 with a user: the salted SHA-256 moves into the scheme-tagged
// hash (the user can still log in, and is upgraded then), the MD5 and the old columns are gone, each row
// gets a random token, and the row is flagged unsafe until that login. On SQLite through the migration
// runner; on PostgreSQL its two migrations in turn on a fresh database.
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { verifyPassword } from '../../../src/server/auth/password-hash'
import { openDatabase } from '../../../src/server/store/database'
import { postgresMigrations } from '../../../src/server/store/postgres/migrations'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import { testEngine, withDatabase } from '../../support/test-database'

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex')
const SALT = '00112233445566778899aabbccddeeff'
const LEGACY = [SALT, hex('sha256', SALT + 'legacy-secret'), hex('md5', 'legacy-secret')]
const INSERT_COLUMNS = 'uname, password_salt, password_sha256, password_md5, created_at'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** The user rows after migrating two legacy users from version 10. */
function migratedUsers(): Record<string, unknown>[] {
  return testEngine === 'sqlite' ? migratedOnSqlite() : migratedOnPostgres()
}

function migratedOnSqlite(): Record<string, unknown>[] {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-password-migration-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'old.sqlite')
  const older = openDatabase(file, undefined, 10).sqlite
  const insert = older.prepare(`INSERT INTO user (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, 0)`)
  for (const uname of ['lee', 'max']) insert.run(uname, ...LEGACY)
  older.close()
  const { sqlite } = openDatabase(file)
  cleanups.push(() => sqlite.close())
  return sqlite.prepare('SELECT * FROM user ORDER BY id').all() as Record<string, unknown>[]
}

function migratedOnPostgres(): Record<string, unknown>[] {
  const cluster = process.env.OVERSEER_TEST_POSTGRES!
  const name = `t_password_migration_${process.pid}`
  const admin = new SyncConnection(withDatabase(cluster, 'postgres'))
  admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  admin.query(`CREATE DATABASE ${name}`)
  const db = new SyncConnection(withDatabase(cluster, name))
  cleanups.push(() => {
    db.close()
    admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    admin.close()
  })
  const [version10, version11] = postgresMigrations
  expect([version10.version, version11.version]).toEqual([10, 11])
  db.query(version10.sql)
  for (const uname of ['lee', 'max']) db.query(`INSERT INTO "user" (${INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, 0)`, [uname, ...LEGACY])
  db.query(version11.sql)
  return db.query('SELECT * FROM "user" ORDER BY id').rows as Record<string, unknown>[]
}

it('keeps the salted SHA-256 as a legacy hash, drops the MD5, gives each row its own token and flags it unsafe', async () => {
  const [lee, max] = migratedUsers()
  expect(
    Object.keys(lee)
      .filter((column) => column.startsWith('password_'))
      .sort()
  ).toEqual(['password_hash', 'password_token', 'password_unsafe'])
  expect(lee.password_hash).toBe(`sha256$${LEGACY[0]}$${LEGACY[1]}`)
  expect(await verifyPassword('legacy-secret', String(lee.password_hash))).toBe(true)
  expect(Number(lee.password_unsafe)).toBe(1)
  expect(lee.password_token).toMatch(/^[0-9a-f]{32}$/)
  expect(max.password_token).toMatch(/^[0-9a-f]{32}$/)
  expect(max.password_token).not.toBe(lee.password_token)
  expect(JSON.stringify([lee, max])).not.toContain(LEGACY[2])
})
