// Which engine the tests run on. Unset: SQLite files in each test's data folder, as users run it. With
// OVERSEER_TEST_POSTGRES set to a throwaway cluster's URL (scripts/test-all.sh starts one with
// scripts/postgres.sh), every data folder gets its own PostgreSQL database, created from a migrated
// template: a server restarted on the same folder finds its data again, as it would in its SQLite file.
// Creating a database copies the template's catalogue (about 0.3 s of the cluster's CPU), so a dropped
// one is emptied back to the template's rows instead and renamed into a pool the next test takes from.
import { createHash, randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { SqliteRunner } from '../../src/server/store/sqlite-runner'
import { DATABASE_FILE } from '../../src/server/server'
import type { PlainSql } from '../../src/server/store/sql'
import { Store } from '../../src/server/store/store'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'

const clusterUrl = process.env.OVERSEER_TEST_POSTGRES
const TEMPLATE = 'overseer_template'
const POOLED = 'overseer_pool_'

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

/** Migrates the template under a name of its own and renames it once complete: another test process
 *  never copies a template still being migrated, nor finds it in use (55006) while it is. */
function ensureTemplate(c: SyncConnection): void {
  if (exists(c, TEMPLATE)) return
  const building = `overseer_template_${process.pid}`
  c.query(`DROP DATABASE IF EXISTS ${building}`)
  c.query(`CREATE DATABASE ${building}`)
  new Store(withDatabase(clusterUrl!, building)).close()
  const template = new SyncConnection(withDatabase(clusterUrl!, building))
  try {
    template.query(NOTING_DDL)
    c.query(`COMMENT ON DATABASE ${building} IS ${quoteLiteral(JSON.stringify(templateSnapshot(template)))}`)
  } finally {
    template.close()
  }
  try {
    if (!onceLeft(() => c.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE}`))) throw new Error(`${building} is still in use`)
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw err
    c.query(`DROP DATABASE ${building} WITH (FORCE)`) // another test process made the template first
  }
}

/** Runs `statement` once the connections that just closed on its database have left (55006 until then);
 *  false when they are still there after two seconds. PostgreSQL itself waits up to 5 s for them within a
 *  statement that needs them gone, so the bound is on the time, not the attempts (400 attempts of 5 s each
 *  held a CI run for half an hour behind one connection left open). */
function onceLeft(statement: () => void): boolean {
  const deadline = Date.now() + 2000
  for (;;) {
    try {
      statement()
      return true
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err
      if (Date.now() > deadline) return false
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
    }
  }
}

/**
 * Every database made from the template notes its own schema changes (a test that migrates or alters
 * tables): such a database is dropped rather than reused. Event triggers see DDL, not TRUNCATE; a
 * `CREATE … IF NOT EXISTS` that found its object (the store's migration table, at every start) changes
 * nothing and is not noted.
 */
const NOTING_DDL = `
  CREATE SCHEMA test_support;
  CREATE TABLE test_support.ddl (tag text NOT NULL);
  CREATE FUNCTION test_support.note_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_EVENT = 'sql_drop' OR EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands()) THEN
        INSERT INTO test_support.ddl VALUES (TG_TAG);
      END IF;
    END $$;
  CREATE EVENT TRIGGER test_support_ddl ON ddl_command_end EXECUTE FUNCTION test_support.note_ddl();
  CREATE EVENT TRIGGER test_support_drop ON sql_drop EXECUTE FUNCTION test_support.note_ddl();`

/** What a database made from the template holds besides its tables: the rows the migrations seed and
 *  where each sequence stands, so that an emptied database can be refilled. */
interface TemplateSnapshot {
  tables: string[]
  rows: Record<string, unknown[]>
  sequences: { name: string; last: string | null }[]
}

function templateSnapshot(c: SyncConnection): TemplateSnapshot {
  const rows: Record<string, unknown[]> = {}
  const tables = c
    .query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
    .rows.map((r) => r.tablename as string)
  for (const table of tables) {
    const [{ all }] = c.query(`SELECT coalesce(json_agg(t), '[]') AS all FROM ${quoteIdent(table)} t`).rows as { all: unknown[] }[]
    if (all.length > 0) rows[table] = all
  }
  const sequences = c.query(`SELECT sequencename AS name, last_value::text AS last FROM pg_sequences WHERE schemaname = 'public'`)
    .rows as TemplateSnapshot['sequences']
  return { tables, rows, sequences }
}

let snapshotOfTemplate: TemplateSnapshot | undefined

function storedSnapshot(c: SyncConnection): TemplateSnapshot | undefined {
  if (snapshotOfTemplate) return snapshotOfTemplate
  const [row] = c.query(`SELECT shobj_description(oid, 'pg_database') AS snapshot FROM pg_database WHERE datname = $1`, [TEMPLATE]).rows
  if (row?.snapshot) snapshotOfTemplate = JSON.parse(row.snapshot as string) as TemplateSnapshot
  return snapshotOfTemplate
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`
const quoteLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`

/** Takes a database from the pool under `name`; false when the pool is empty (or every one was taken meanwhile). */
function claimPooled(c: SyncConnection, name: string): boolean {
  const pooled = c.query(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [POOLED]).rows
  for (const { datname } of pooled) {
    try {
      c.query(`ALTER DATABASE ${quoteIdent(datname as string)} RENAME TO ${name}`)
      return true
    } catch (err) {
      // 3D000: another test process renamed it first; 55006: still being left by the connection that emptied it.
      if (!['3D000', '55006'].includes((err as { code?: string }).code ?? '')) throw err
    }
  }
  return false
}

/** Empties a database back to the template's rows and puts it in the pool; false when it cannot be
 *  reused (someone still connected, its schema changed by the test) and must be dropped. The emptying
 *  runs through dblink on the cluster's side: a connection of our own would cost a thread and a client. */
function recycle(c: SyncConnection, name: string): boolean {
  const snapshot = storedSnapshot(c)
  if (!snapshot || !hasDblink(c)) return false
  if (Number(c.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]).rows[0].n) > 0) return false
  const cluster = new URL(clusterUrl!)
  c.query(`SELECT dblink_connect('recycle', $1)`, [
    `host=${cluster.hostname} port=${cluster.port || 5432} dbname=${name} user=${decodeURIComponent(cluster.username)} password=${decodeURIComponent(cluster.password)}`
  ])
  try {
    c.query(`SELECT dblink_exec('recycle', $1)`, [emptyingSql(snapshot)])
  } catch (err) {
    // P0001: its schema was changed (or it predates the noting of DDL); anything else is PostgreSQL's own trouble.
    if ((err as { code?: string }).code === 'P0001' || (err as { code?: string }).code === '42P01') return false
    throw err
  } finally {
    c.query(`SELECT dblink_disconnect('recycle')`)
  }
  if (onceLeft(() => c.query(`ALTER DATABASE ${name} RENAME TO ${POOLED}${randomBytes(8).toString('hex')}`))) return true
  // A connection came after its test closed its stores: said, so that a leak shows; the database is dropped.
  const stayed = c.query(
    'SELECT application_name, state, backend_start FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name]
  ).rows
  console.warn(`test database ${name}: connections still open after its test closed its stores: ${JSON.stringify(stayed)}`)
  return false
}

/** Every table emptied but the migrations' own, the seeded rows put back, the sequences where the
 *  template's stand; refused (P0001) when the database noted a change of its schema. */
function emptyingSql({ tables, rows, sequences }: TemplateSnapshot): string {
  const emptied = tables.filter((t) => t !== 'schema_migration')
  return [
    'BEGIN',
    `DO $$ BEGIN IF EXISTS (SELECT 1 FROM test_support.ddl) THEN RAISE EXCEPTION 'its schema was changed'; END IF; END $$`,
    // Truncated, not deleted from: a table left full of dead rows (1,000 hosts) slowed the next test down
    // twofold. Only those that ever held a row: truncating costs a new file per table and index.
    `DO $$ DECLARE used text; BEGIN
      SELECT string_agg(format('%I', t), ', ') INTO used FROM unnest(ARRAY[${emptied.map(quoteLiteral).join(', ')}]::text[]) t
        WHERE pg_relation_size(quote_ident(t)) > 0;
      IF used IS NOT NULL THEN EXECUTE 'TRUNCATE ' || used || ' CASCADE'; END IF;
    END $$`,
    ...Object.entries(rows)
      .filter(([t]) => t !== 'schema_migration')
      .map(
        ([t, all]) =>
          `INSERT INTO ${quoteIdent(t)} SELECT * FROM json_populate_recordset(null::${quoteIdent(t)}, ${quoteLiteral(JSON.stringify(all))})`
      ),
    // setval, not ALTER SEQUENCE: DDL would be noted.
    ...sequences.map(({ name, last }) => `SELECT setval(${quoteLiteral(name)}, ${last ?? 1}, ${last !== null})`),
    'COMMIT'
  ].join(';\n')
}

let dblink: boolean | undefined

/** dblink (PostgreSQL's contrib, in Debian's server package) in the admin connection's database. */
function hasDblink(c: SyncConnection): boolean {
  if (dblink === undefined) {
    try {
      c.query('CREATE EXTENSION IF NOT EXISTS dblink')
      dblink = true
    } catch (err) {
      // 23505/42710: created meanwhile by another test process; anything else: not installed, drop instead.
      dblink = ['23505', '42710'].includes((err as { code?: string }).code ?? '')
    }
  }
  return dblink
}

/** The store location for a data folder: undefined on SQLite (the server's own file in it), else a database URL. */
export function databaseFor(dataDir: string): string | undefined {
  if (!clusterUrl) return undefined
  const name = databaseName(dataDir)
  const c = adminConnection()
  if (!exists(c, name) && !claimPooled(c, name)) c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`)
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
  const c = adminConnection()
  const name = databaseName(dataDir)
  if (!exists(c, name) || recycle(c, name)) return
  c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

const databaseName = (dataDir: string): string => `t_${createHash('sha1').update(dataDir).digest('hex').slice(0, 20)}`

/** The SQLite connection of a store on SQLite, for what only SQLite has (pragmas, its write lock). */
export function sqliteOf(store: Store): Database.Database {
  if (store.sql.engine !== 'sqlite') throw new Error('this needs the SQLite engine')
  return (store.sql as SqliteRunner).sqlite
}
