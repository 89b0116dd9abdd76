// Opens the SQLite file, applies pragmas and runs pending migrations.
import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { privateFiles } from './private-files'
import { migrations, type Migration } from './migrations'

export interface OpenedDatabase {
  sqlite: Database.Database
  /** Path of the backup taken before migrating an existing database, if any. */
  backupFile?: string
}

/** The page cache of one connection when the server is not told otherwise (--cache-size). */
export const DEFAULT_PAGE_CACHE_MIB = 16

/**
 * `upToVersion`: migrate no further than this schema version (tests make databases of older versions).
 * `pageCacheMib`: this connection's SQLite page cache.
 */
export function openDatabase(
  file: string,
  log: (line: string) => void = () => {},
  upToVersion = LATEST_VERSION,
  pageCacheMib = DEFAULT_PAGE_CACHE_MIB
): OpenedDatabase {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const existed = existsSync(file)
  const sqlite = new Database(file)
  // WAL + synchronous=NORMAL: a commit is in the WAL file before the call returns, so a killed
  // process loses nothing it acknowledged; only a power cut can drop the last transactions.
  sqlite.pragma('journal_mode = WAL')
  // SQLite gives the WAL and shared-memory files the database file's mode.
  privateFiles(file, `${file}-wal`, `${file}-shm`)
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // Thousands of hosts' latest state stays in memory between their messages; what does not fit is
  // read again from the operating system's file cache. Negative: a size in KiB rather than in pages.
  sqlite.pragma(`cache_size = -${Math.round(pageCacheMib * 1024)}`)
  // Lets the retention job hand freed pages back to the file system (PRAGMA incremental_vacuum).
  if (!existed) sqlite.pragma('auto_vacuum = INCREMENTAL')
  const backupFile = migrate(sqlite, file, existed, log, upToVersion)
  return { sqlite, backupFile }
}

const LATEST_VERSION = migrations[migrations.length - 1].version

function schemaVersion(sqlite: Database.Database): number {
  const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migration'").get()
  return table ? ((sqlite.prepare('SELECT MAX(version) AS v FROM schema_migration').get() as { v: number | null }).v ?? 0) : 0
}

export interface PendingMigration {
  fromVersion: number
  toVersion: number
}

/**
 * The migration (and the backup before it) that opening `file` will run, if any: the server tells the
 * desktop shell before starting it, since it can take minutes on a large database.
 */
export function pendingMigration(file: string): PendingMigration | undefined {
  if (!existsSync(file)) return undefined
  const sqlite = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const current = schemaVersion(sqlite)
    return current > 0 && current < LATEST_VERSION ? { fromVersion: current, toVersion: LATEST_VERSION } : undefined
  } finally {
    sqlite.close()
  }
}

function migrate(
  sqlite: Database.Database,
  file: string,
  existed: boolean,
  log: (line: string) => void,
  latest: number
): string | undefined {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
  const current = schemaVersion(sqlite)
  if (current > LATEST_VERSION) {
    throw new Error(`database schema version ${current} is newer than this program knows (${LATEST_VERSION}); upgrade the program`)
  }
  const pending = migrations.filter((m) => m.version > current && m.version <= latest)
  if (pending.length === 0) return undefined

  let backupFile: string | undefined
  if (existed && current > 0) {
    backupFile = `${file}.before-v${latest}-${Date.now()}.bak`
    sqlite.exec(`VACUUM INTO '${backupFile.replaceAll("'", "''")}'`)
    privateFiles(backupFile)
    log(`database backed up to ${backupFile} before migrating from schema ${current} to ${latest}`)
  }
  for (const m of pending) apply(sqlite, m)
  return backupFile
}

function apply(sqlite: Database.Database, m: Migration): void {
  sqlite.transaction(() => {
    sqlite.exec(m.sql)
    sqlite
      .prepare('INSERT INTO schema_migration (version, name, applied_at) VALUES (?, ?, ?)')
      .run(m.version, m.name, Math.floor(Date.now() / 1000))
  })()
}
