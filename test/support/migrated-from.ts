// A table's rows after the migrations ran over a database of an older version holding rows written then:
// on SQLite through the migration runner, on PostgreSQL its migrations in turn on a database of its own.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/server/store/database'
import { postgresMigrations } from '../../src/server/store/postgres/migrations'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'
import { testEngine, withDatabase } from './test-database'

/** A statement of the older version, its parameters written `?`. */
export type SeedStatement = [sql: string, values?: unknown[]]

/** The rows `select` reads once every migration after `before` ran over a database of that version holding `seed`. */
export function rowsAfterMigrating(before: number, seed: readonly SeedStatement[], select: string): Record<string, unknown>[] {
  return testEngine === 'sqlite' ? onSqlite(before, seed, select) : onPostgres(before, seed, select)
}

function onSqlite(before: number, seed: readonly SeedStatement[], select: string): Record<string, unknown>[] {
  const dir = mkdtempSync(join(tmpdir(), 'overseer-migration-'))
  try {
    const file = join(dir, 'old.sqlite')
    const older = openDatabase(file, undefined, before).sqlite
    for (const [sql, values = []] of seed) older.prepare(sql).run(...values)
    older.close()
    const { sqlite } = openDatabase(file)
    try {
      return sqlite.prepare(select).all() as Record<string, unknown>[]
    } finally {
      sqlite.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function onPostgres(before: number, seed: readonly SeedStatement[], select: string): Record<string, unknown>[] {
  const cluster = process.env.OVERSEER_TEST_POSTGRES!
  const name = `t_migration_${process.pid}`
  const admin = new SyncConnection(withDatabase(cluster, 'postgres'))
  try {
    admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    admin.query(`CREATE DATABASE ${name}`)
    const db = new SyncConnection(withDatabase(cluster, name))
    try {
      for (const m of postgresMigrations.filter((m) => m.version <= before)) db.query(m.sql)
      for (const [sql, values = []] of seed) {
        let n = 0
        db.query(
          sql.replace(/\?/g, () => `$${++n}`),
          values
        )
      }
      for (const m of postgresMigrations.filter((m) => m.version > before)) db.query(m.sql)
      return db.query(select).rows as Record<string, unknown>[]
    } finally {
      db.close()
    }
  } finally {
    admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    admin.close()
  }
}
