// The tests the MySQL/MariaDB and PostgreSQL sources share (test/server/tools/import-mmonit/mysql-source
// and postgres-source): the same generated M/Monit databases written into SQLite and into the server,
// read through both sources and compared row by row; names checked against the catalogue; 64-bit ids
// refused when a number cannot hold them; a read-only session; passwords never shown.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/server/auth/secret-box'
import { Store } from '../../src/server/store/store'
import { importMMonit, type ImportReport } from '../../src/server/tools/import-mmonit/import-database'
import { SourceError, type MMonitSource, type SourceRow } from '../../src/server/store/mmonit-source/source'
import { openSource } from '../../src/server/tools/import-mmonit/open-source'
import {
  createMMonitSqlite,
  fillMMonit,
  mmonitTables,
  SMALL_SHAPE,
  type MMonitShape,
  type ServerEngine,
  type TableDefinition
} from './mmonit-database'
import { connectTo, createServerDatabase, databaseUrl, type TestServer } from './mmonit-server-database'
import { dropDatabaseOf, storeLocation } from './test-database'

/** A few hosts: every table holds rows, the roll-ups a few thousand (their spans are fixed). */
const shapeOf = (version: 15 | 26): MMonitShape => ({
  ...SMALL_SHAPE,
  version,
  hosts: 2,
  servicesPerHost: 3,
  eventsPerService: 3,
  samplesPerSeries: 20
})

/** Pages of 7 rows: every table with more takes several, and keyset paging is exercised. */
const PAGE = 7

export function serverSourceCases(engine: ServerEngine, missing: string | undefined, start: () => Promise<TestServer>): void {
  const title = `${engine === 'mysql' ? 'MySQL/MariaDB' : 'PostgreSQL'} source${missing ? ` (skipped: ${missing})` : ''}`
  describe.skipIf(missing !== undefined)(title, () => {
    let server: TestServer
    let dir: string
    const prefix = `mmonit_${process.pid}`

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'overseer-mmonit-source-'))
      server = await start()
    }, 120_000)

    afterAll(async () => {
      const admin = await connectTo(engine, server.url)
      for (const name of ['15', '26', 'big', 'import'].map((n) => `${prefix}_${n}`)) await admin.exec(`DROP DATABASE IF EXISTS ${name}`)
      await admin.close()
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    for (const version of [15, 26] as const) {
      it(`reads every table of schema ${version} as the SQLite source reads it, page by page`, async () => {
        const shape = shapeOf(version)
        const file = join(dir, `mmonit-${version}.db`)
        createMMonitSqlite(file, shape)
        const url = await createServerDatabase(engine, server.url, `${prefix}_${version}`, mmonitTables(version), (sink) =>
          fillMMonit(sink, shape)
        )
        const [expected, actual] = [await openSource(`sqlite:${file}`), await openSource(url)]
        try {
          expect(actual.kind).toBe(engine)
          expect([...(await actual.tables())].sort()).toEqual([...(await expected.tables())].sort())
          let rows = 0
          for (const table of mmonitTables(version)) {
            expect(await actual.columns(table.name)).toEqual(await expected.columns(table.name))
            expect(await actual.count(table.name)).toBe(await expected.count(table.name))
            const mine = await allRows(actual, table)
            // Text keys sort by each engine's collation: the rows are compared as sets.
            expect(sorted(mine)).toEqual(sorted(await allRows(expected, table)))
            rows += mine.length
          }
          expect(rows).toBeGreaterThan(5000)
          const since = shape.now - 600
          expect(await actual.count('event', { column: 'collectedsec', min: since })).toBe(
            await expected.count('event', { column: 'collectedsec', min: since })
          )
        } finally {
          await expected.close()
          await actual.close()
        }
      }, 60_000)
    }

    it('imports the same hosts, services, groups, users, events and history as from the SQLite copy', async () => {
      const shape = shapeOf(26)
      const file = join(dir, 'mmonit-import.db')
      createMMonitSqlite(file, shape)
      const url = await createServerDatabase(engine, server.url, `${prefix}_import`, mmonitTables(26), (sink) => fillMMonit(sink, shape))
      const fromServer = await importInto(dir, 'server', url)
      const fromSqlite = await importInto(dir, 'sqlite', `sqlite:${file}`)
      try {
        expect(fromServer.report.steps.map((s) => [s.name, s.expected, s.imported, s.skipped])).toEqual(
          fromSqlite.report.steps.map((s) => [s.name, s.expected, s.imported, s.skipped])
        )
        expect(fromServer.report.steps.find((s) => s.name === 'events')?.imported).toBe(
          shape.hosts * shape.servicesPerHost * shape.eventsPerService
        )
        for (const [table, order] of IMPORTED_TABLES) {
          const read = (store: Store) =>
            store.sql.rows<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${order}`).map(withoutFresh)
          const rows = read(fromServer.store)
          expect(rows.length, table).toBeGreaterThan(0)
          expect(rows, table).toEqual(read(fromSqlite.store))
        }
        const passwords = (t: typeof fromServer) =>
          t.store.sql.rows<{ p: string }>('SELECT agent_password AS p FROM host ORDER BY agent_id').map((r) => t.secrets.open(r.p))
        expect(passwords(fromServer)).toEqual(Array.from({ length: shape.hosts }, (_, h) => `secret-${h + 1}`))
      } finally {
        fromServer.close()
        fromSqlite.close()
      }
    }, 60_000)

    it('checks table and column names against the catalogue before building SQL, and bounds the page size', async () => {
      const source = await openSource(databaseUrl(server.url, `${prefix}_15`))
      try {
        await expect(source.page({ table: 'name; DROP TABLE name', columns: ['id'], key: ['id'], limit: 5 })).rejects.toThrow(
          /has no table name; DROP TABLE name/
        )
        await expect(source.page({ table: 'name', columns: ['id', 'name FROM users --'], key: ['id'], limit: 5 })).rejects.toThrow(
          /table name has no column name FROM users --/
        )
        await expect(source.page({ table: 'name', columns: ['id'], key: ['id'], limit: 1_000_000 })).rejects.toThrow(
          /1 to 100000 rows, not 1000000/
        )
        expect((await source.page({ table: 'name', columns: ['id'], key: ['id'], limit: 2 })).map((r) => r.id)).toEqual([1, 2])
      } finally {
        await source.close()
      }
    })

    it('reads 64-bit ids as numbers, and refuses one a number cannot hold exactly', async () => {
      const tables: TableDefinition[] = [
        {
          name: 'name',
          columns: [
            ['id', 'serial'],
            ['name', 'text']
          ]
        }
      ]
      const exact = Number.MAX_SAFE_INTEGER
      const url = await createServerDatabase(engine, server.url, `${prefix}_big`, tables, (sink) =>
        sink.insert('name', [{ id: exact, name: 'largest exact' }])
      )
      const source = await openSource(url)
      try {
        expect(await source.page({ table: 'name', columns: ['id', 'name'], key: ['id'], limit: 5 })).toEqual([
          { id: exact, name: 'largest exact' }
        ])
        const db = await connectTo(engine, url)
        await db.exec(`INSERT INTO name (id, name) VALUES (9007199254740993, 'beyond')`)
        await db.close()
        const page = source.page({ table: 'name', columns: ['id', 'name'], key: ['id'], limit: 5 })
        await expect(page).rejects.toThrow(SourceError)
        await expect(page).rejects.toThrow(/name\.id: 9007199254740993 is beyond the integers this importer keeps exactly/)
      } finally {
        await source.close()
      }
    })

    it('reads in a read-only session: a write through its connection is refused by the server', async () => {
      const source = await openSource(databaseUrl(server.url, `${prefix}_15`))
      try {
        // The session itself, reached past the interface: the importer never writes, the server must refuse it too.
        const session = source as unknown as { query(sql: string, params: unknown[]): Promise<unknown> }
        await expect(session.query(`INSERT INTO name (id, name) VALUES (99999, 'written')`, [])).rejects.toThrow(/read.only/i)
        expect(await source.count('name')).toBe(await source.count('name'))
      } finally {
        await source.close()
      }
    })

    it('reads as a user whose password needs percent-encoding in the URL, granted SELECT only', async () => {
      const password = 'p@ss:w/rd%?#'
      const url = new URL(databaseUrl(server.url, `${prefix}_15`))
      if (engine === 'mysql') {
        // The throwaway PostgreSQL cluster trusts local connections: there the URL's parsing is what is tested.
        const admin = await connectTo(engine, server.url)
        await admin.exec(`DROP USER IF EXISTS 'reader'@'127.0.0.1'`)
        await admin.exec(`CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY '${password}'`)
        await admin.exec(`GRANT SELECT ON ${prefix}_15.* TO 'reader'@'127.0.0.1'`)
        await admin.close()
        url.username = 'reader'
      }
      url.password = encodeURIComponent(password)
      const source = await openSource(url.href)
      try {
        expect(await source.count('host')).toBe(shapeOf(15).hosts)
      } finally {
        await source.close()
      }
    })

    it('never shows the password of the URL in its errors', async () => {
      const password = 'S3cret:p@ss/w%rd'
      const url = new URL(databaseUrl(server.url, `${prefix}_nosuch`))
      url.password = encodeURIComponent(password)
      const error = await openSource(url.href).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(SourceError)
      const message = (error as Error).message
      expect(message).toContain('***')
      expect(message).not.toContain(password)
      expect(message).not.toContain(encodeURIComponent(password))
    })
  })
}

async function allRows(source: MMonitSource, table: TableDefinition): Promise<SourceRow[]> {
  const columns = table.columns.map(([name]) => name)
  const serial = table.columns.find(([, type]) => type === 'serial')?.[0]
  const key = table.primaryKey ?? (serial ? [serial] : columns)
  const rows: SourceRow[] = []
  let after: SourceRow[string][] | undefined
  for (;;) {
    const page = await source.page({ table: table.name, columns, key, after, limit: PAGE })
    rows.push(...page)
    if (page.length < PAGE) return rows
    after = key.map((c) => page[page.length - 1][c])
  }
}

const sorted = (rows: SourceRow[]) => rows.map((r) => JSON.stringify(r)).sort()

/** The store's tables an import fills, each in an order both imports share. */
const IMPORTED_TABLES = [
  ['host', 'agent_id'],
  ['service', 'id'],
  ['host_group', 'id'],
  ['host_group_member', 'group_id, host_id'],
  ['service_group', 'id'],
  ['event', 'id'],
  ['event_note', 'id'],
  ['"user"', 'id'],
  ['statistic', 'id'],
  ['history_minute', 'start, statistic_id'],
  ['history_hour', 'start, statistic_id'],
  ['history_day', 'start, statistic_id']
] as const

/** Columns the importer fills from the clock or at random (a password token, a seal's nonce): the rest is compared. */
function withoutFresh(row: Record<string, unknown>): Record<string, unknown> {
  const { created_at: _created, agent_password: _sealed, password_token: _token, ...rest } = row
  return rest
}

interface ImportedStore {
  report: ImportReport
  store: Store
  secrets: SecretBox
  close(): void
}

/** An import of `from` into a new store on the test engine. */
async function importInto(root: string, label: string, from: string): Promise<ImportedStore> {
  const target = mkdtempSync(join(root, `target-${label}-`))
  const to = storeLocation(target, 'overseer.sqlite')
  const keyFile = join(target, 'secret.key')
  const report = await importMMonit({ from, to, keyFile, history: true, dryRun: false, merge: false, batchRows: 50 })
  const store = new Store(to)
  return {
    report,
    store,
    secrets: SecretBox.fromKeyFile(keyFile),
    close: () => {
      store.close()
      dropDatabaseOf(target)
    }
  }
}
