// Which engine the tests run on. Unset: SQLite files in each test's data folder, as users run it. With
// OVERSEER_TEST_POSTGRES set to a throwaway cluster's URL (scripts/test-all.sh starts one with
// scripts/postgres.sh), every data folder gets its own PostgreSQL database, created from a migrated
// template: a server restarted on the same folder finds its data again, as it would in its SQLite file.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { SqliteRunner } from '../../src/server/store/sqlite-runner'
import { DATABASE_FILE } from '../../src/server/server'
import type { PlainSql } from '../../src/server/store/sql'
import { Store } from '../../src/server/store/store'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'

const clusterUrl = process.env.OVERSEER_TEST_POSTGRES
const TEMPLATE = 'overseer_template'

export const testEngine: 'sqlite' | 'postgres' = clusterUrl ? 'postgres' : 'sqlite'

let admin: SyncConnection | undefined

function adminConnection(): SyncConnection {
  if (!admin) {
    admin = new SyncConnection(withDatabase(clusterUrl!, 'postgres'))
    ensureTemplate(admin)
  }
  return admin
}

/** The URL of another database on the same cluster. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

function exists(c: SyncConnection, database: string): boolean {
  return c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]).rows.length > 0
}

function ensureTemplate(c: SyncConnection): void {
  if (exists(c, TEMPLATE)) return
  try {
    c.query(`CREATE DATABASE ${TEMPLATE}`)
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw err // created meanwhile by another test process
    return
  }
  new Store(withDatabase(clusterUrl!, TEMPLATE)).close()
}

/** The store location for a data folder: undefined on SQLite (the server's own file in it), else a database URL. */
export function databaseFor(dataDir: string): string | undefined {
  if (!clusterUrl) return undefined
  const name = databaseName(dataDir)
  const c = adminConnection()
  if (!exists(c, name)) c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`)
  return withDatabase(clusterUrl, name)
}

/** Where the store of data folder `dataDir` lives: its database, or its SQLite file `sqliteFile` in it. */
export function storeLocation(dataDir: string, sqliteFile: string): string {
  return databaseFor(dataDir) ?? join(dataDir, sqliteFile)
}

/** Plain SQL on the store of a server's data folder (its database, or `overseer.sqlite` in it), to close after use. */
export function plainDatabaseOf(dataDir: string): PlainSql & { close(): void } {
  const store = new Store(storeLocation(dataDir, DATABASE_FILE))
  return { ...store.sql.plain, close: () => store.close() }
}

/** Drops a data folder's database, once its servers are closed (SQLite: the folder's removal does it). */
export function dropDatabaseOf(dataDir: string): void {
  if (!clusterUrl) return
  adminConnection().query(`DROP DATABASE IF EXISTS ${databaseName(dataDir)} WITH (FORCE)`)
}

const databaseName = (dataDir: string): string => `t_${createHash('sha1').update(dataDir).digest('hex').slice(0, 20)}`

/** The SQLite connection of a store on SQLite, for what only SQLite has (pragmas, its write lock). */
export function sqliteOf(store: Store): Database.Database {
  if (store.sql.engine !== 'sqlite') throw new Error('this needs the SQLite engine')
  return (store.sql as SqliteRunner).sqlite
}
