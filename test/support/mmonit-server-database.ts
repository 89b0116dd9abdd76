// M/Monit databases on real database servers, for the MySQL/MariaDB and PostgreSQL sources' tests: a
// throwaway MariaDB (scripts/mariadb.sh) or PostgreSQL cluster (the suite's, OVERSEER_TEST_POSTGRES, or
// one of the test's own from scripts/postgres.sh), and the same generated rows as the SQLite database
// (mmonit-database.ts) written into a database of its own there.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createConnection } from 'mysql2/promise'
import pg from 'pg'
import { serverDdl, type RowSink, type ServerEngine, type TableDefinition } from './mmonit-database'
import { freePort } from './ports'

const run = promisify(execFile)
const SCRIPT_TIMEOUT_MS = 60_000
const ROWS_PER_INSERT = 500

/** A database server for the test file: the URL of a database its user may create databases from. */
export interface TestServer {
  url: string
  stop(): Promise<void>
}

/** Why MariaDB tests cannot run here, or undefined. */
export function mariaDbMissing(): string | undefined {
  return existsSync('/usr/sbin/mariadbd') ? undefined : 'MariaDB is not installed (Debian package mariadb-server; .ci/run installs it)'
}

/** Why PostgreSQL tests cannot run here (no suite cluster and no PostgreSQL installed), or undefined. */
export function postgresMissing(): string | undefined {
  if (process.env.OVERSEER_TEST_POSTGRES) return undefined
  const installed = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0
  return installed ? undefined : 'PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)'
}

/** A MariaDB of the test's own. */
export function startMariaDb(): Promise<TestServer> {
  return startByScript('scripts/mariadb.sh', 'overseer-test-mariadb-')
}

/** The suite's PostgreSQL cluster, or one of the test's own. */
export async function postgresCluster(): Promise<TestServer> {
  const suite = process.env.OVERSEER_TEST_POSTGRES
  if (suite) return { url: suite, stop: async () => undefined }
  return startByScript('scripts/postgres.sh', 'overseer-test-pg-')
}

async function startByScript(script: string, prefix: string): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const port = await freePort()
  const started = await run(script, ['start', dir, String(port)], { timeout: SCRIPT_TIMEOUT_MS })
  return {
    url: started.stdout.trim(),
    stop: async () => {
      await run(script, ['stop', dir], { timeout: SCRIPT_TIMEOUT_MS })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Plain SQL on one database of a server. */
export interface ServerConnection {
  exec(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

export async function connectTo(engine: ServerEngine, url: string): Promise<ServerConnection> {
  if (engine === 'mysql') {
    const c = await createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true })
    return {
      exec: async (sql, params = []) => {
        const [rows] = await c.query(sql, [...params])
        return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []
      },
      close: () => c.end()
    }
  }
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  return { exec: async (sql, params = []) => (await c.query(sql, [...params])).rows, close: () => c.end() }
}

/** The URL of database `name` on the server of `url`, with `url`'s credentials. */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.href
}

/**
 * Creates database `name` (dropped first if a previous run left it) with `tables`, and the rows `fill`
 * writes into its sink; its URL.
 */
export async function createServerDatabase(
  engine: ServerEngine,
  serverUrl: string,
  name: string,
  tables: readonly TableDefinition[],
  fill: (sink: RowSink) => void
): Promise<string> {
  const admin = await connectTo(engine, serverUrl)
  try {
    await admin.exec(`DROP DATABASE IF EXISTS ${name}`)
    await admin.exec(`CREATE DATABASE ${name}`)
  } finally {
    await admin.close()
  }
  const url = databaseUrl(serverUrl, name)
  const db = await connectTo(engine, url)
  try {
    for (const statement of serverDdl(tables, engine)) await db.exec(statement)
    const rows = new Map<string, Record<string, unknown>[]>()
    fill({ insert: (table, list) => rows.set(table, [...(rows.get(table) ?? []), ...list]) })
    for (const [table, list] of rows) await insertRows(engine, db, table, list)
  } finally {
    await db.close()
  }
  return url
}

/** Multi-row INSERTs, a few hundred rows each; a column a row lacks is NULL. */
export async function insertRows(engine: ServerEngine, db: ServerConnection, table: string, rows: readonly Record<string, unknown>[]) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const chunk = rows.slice(at, at + ROWS_PER_INSERT)
    const params: unknown[] = []
    const tuples = chunk.map((row) => {
      const marks = columns.map((c) => {
        params.push(row[c] ?? null)
        return engine === 'mysql' ? '?' : `$${params.length}`
      })
      return `(${marks.join(', ')})`
    })
    await db.exec(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params)
  }
}
