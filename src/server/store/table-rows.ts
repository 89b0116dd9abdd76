// Whole rows of any table, read in primary-key order and written back as they are: what moving a
// database from one engine to the other (tools/migrate-database.ts) does with every table.
import { quoted, type TableShape } from './catalog'
import type { SqlRunner } from './sql'

export type TableRow = Record<string, unknown>

/** Bound values per INSERT: under both engines' limits (SQLite 32,766, PostgreSQL 65,535). */
const MAX_VALUES_PER_INSERT = 30_000
/** Rows per INSERT: past this, longer statements save no time. */
const MAX_ROWS_PER_INSERT = 500

export class TableRows {
  constructor(private readonly sql: SqlRunner) {}

  tables(): TableShape[] {
    return this.sql.dialect.catalog.tables(this.sql)
  }

  count(table: string): number {
    return Number(this.sql.rows<{ n: number }>(`SELECT count(*) AS n FROM ${quoted(table)}`)[0].n)
  }

  /** Up to `limit` rows, in primary-key order, after the row whose key is `after` (from the first row when undefined). */
  batch(shape: TableShape, after: readonly unknown[] | undefined, limit: number): TableRow[] {
    const key = shape.primaryKey.map(quoted).join(', ')
    const columns = shape.columns.map(quoted).join(', ')
    const from = after ? `WHERE (${key}) > (${after.map(() => '?').join(', ')})` : ''
    return this.sql.rows(`SELECT ${columns} FROM ${quoted(shape.name)} ${from} ORDER BY ${key} LIMIT ?`, [...(after ?? []), limit])
  }

  /** Writes `rows` as they are, ids included, in one transaction. */
  insert(shape: TableShape, rows: readonly TableRow[]): void {
    const perInsert = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_VALUES_PER_INSERT / shape.columns.length)))
    const columns = shape.columns.map(quoted).join(', ')
    const marks = `(${shape.columns.map(() => '?').join(', ')})`
    this.sql.transaction(() => {
      for (let i = 0; i < rows.length; i += perInsert) {
        const chunk = rows.slice(i, i + perInsert)
        const values = chunk.flatMap((row) => shape.columns.map((c) => asBindable(row[c])))
        this.sql.execute(`INSERT INTO ${quoted(shape.name)} (${columns}) VALUES ${chunk.map(() => marks).join(', ')}`, values)
      }
    })
  }

  deleteAll(table: string): void {
    this.sql.execute(`DELETE FROM ${quoted(table)}`, [])
  }

  /** Moves the id generator past the ids written, where the engine keeps one apart from the rows. */
  resetIdentity(shape: TableShape): void {
    const statement = shape.generatedId ? this.sql.dialect.catalog.identityReset(shape.name) : undefined
    if (statement) this.sql.rows(statement)
  }
}

/** Blobs come back from PostgreSQL's thread as plain Uint8Arrays, which better-sqlite3 does not bind. */
function asBindable(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value
}
