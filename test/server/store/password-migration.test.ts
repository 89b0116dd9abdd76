// Migration 011 on a database of version 10 with a user: the salted SHA-256 moves into the scheme-tagged
// hash (the user can still log in, and is upgraded then), the MD5 and the old columns are gone, each row
// gets a random token, and the row is flagged unsafe until that login. On SQLite through the migration
// runner; on PostgreSQL its migrations in turn on a fresh database.
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { verifyPassword } from '../../../src/server/auth/password-hash'
import { rowsAfterMigrating } from '../../support/migrated-from'

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex')
const SALT = '00112233445566778899aabbccddeeff'
const LEGACY = [SALT, hex('sha256', SALT + 'legacy-secret'), hex('md5', 'legacy-secret')]
const INSERT_COLUMNS = 'uname, password_salt, password_sha256, password_md5, created_at'

/** The user rows after migrating two legacy users from version 10. */
const migratedUsers = () =>
  rowsAfterMigrating(
    10,
    ['lee', 'max'].map((uname) => [`INSERT INTO "user" (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, 0)`, [uname, ...LEGACY]]),
    'SELECT * FROM "user" ORDER BY id'
  )

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
