// Opens a PostgreSQL database and brings its schema up to date. Several instances may start together
// against one database: the migrations run under an advisory lock, so one applies them and the others
// find them applied.
import { postgresMigrations } from './migrations'
import { PostgresRunner } from './runner'
import { SyncConnection, type SyncConnectionOptions } from './sync-connection'

/** pg_advisory_lock key of the migrations (any constant shared by every instance). */
const MIGRATION_LOCK = 7_240_017_001

export interface PostgresOptions {
  /** How long a statement may wait for a lock another session holds; absent, no limit but the statement's. */
  lockTimeoutMs?: number
  /** How long a statement may run (statement_timeout) but the migrations'; absent, SyncConnection's default. */
  statementTimeoutMs?: number
  /** Statements not answered within this are looked at, and given up when stuck (stall-watch.ts); absent, never. */
  stallMs?: number
  /** Told of the statements answered slowly. */
  onSlow?: SyncConnectionOptions['onSlow']
}

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location)
}

export function openPostgres(
  url: string,
  log: (line: string) => void = () => {},
  { lockTimeoutMs, statementTimeoutMs, stallMs, onSlow }: PostgresOptions = {}
): PostgresRunner {
  const runner = new PostgresRunner(new SyncConnection(url, { lockTimeoutMs, statementTimeoutMs, onSlow }))
  try {
    migrate(runner, log)
    if (stallMs) runner.connection.guard(stallMs)
  } catch (err) {
    runner.close()
    throw err
  }
  return runner
}

const LATEST_VERSION = postgresMigrations[postgresMigrations.length - 1].version

function migrate(runner: PostgresRunner, log: (line: string) => void): void {
  // Another instance may be migrating (the advisory lock), and a migration may wait for the collector's
  // transactions on the tables it alters: neither is a lock to give up on; nor is a long migration a
  // statement to give up on.
  runner.execute('SET lock_timeout = 0')
  runner.execute('SET statement_timeout = 0')
  runner.execute('SELECT pg_advisory_lock(?)', [MIGRATION_LOCK])
  try {
    runner.execute(`CREATE TABLE IF NOT EXISTS schema_migration (
      version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`)
    const current = runner.rows<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migration')[0].v ?? 0
    if (current > LATEST_VERSION) {
      throw new Error(`database schema version ${current} is newer than this program knows (${LATEST_VERSION}); upgrade the program`)
    }
    for (const m of postgresMigrations.filter((m) => m.version > current)) {
      runner.transaction(() => {
        runner.connection.query(m.sql)
        runner.execute('INSERT INTO schema_migration (version, name, applied_at) VALUES (?, ?, ?)', [
          m.version,
          m.name,
          Math.floor(Date.now() / 1000)
        ])
      })
      log(`PostgreSQL schema migrated to version ${m.version} (${m.name})`)
    }
  } finally {
    runner.execute('SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK])
    runner.execute('RESET lock_timeout')
    runner.execute('RESET statement_timeout')
  }
}
