// What a database says about its own tables, read from each engine's catalog: the copy between engines
// (tools/migrate-database.ts) learns the tables, their columns, keys and foreign keys from it instead of a
// list kept by hand, so a table added by a later migration is copied too.
export interface TableShape {
  name: string
  /** In the table's own order. */
  columns: string[]
  /** The primary key's columns, in the key's order: the copy reads in this order, batch after batch. */
  primaryKey: string[]
  /** Tables this one's foreign keys point at (itself excluded). */
  parents: string[]
  /** Its `id` column is numbered by the database (SQLite's INTEGER PRIMARY KEY, PostgreSQL's identity). */
  generatedId: boolean
}

/** SqlRunner's `rows` (not imported: the runners' dialects hold a catalog). */
interface Reader {
  rows<T = Record<string, unknown>>(text: string, args?: readonly unknown[]): T[]
}

export interface Catalog {
  /** Every table but the engine's own and schema_migration (each end migrates its own schema). */
  tables(sql: Reader): TableShape[]
  /** After rows were written with their ids: the statement that moves the generator of `table`'s generated `id` past them, if the engine needs one. */
  identityReset(table: string): string | undefined
}

export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`

function shapes(names: string[], describe: (table: string) => Omit<TableShape, 'name'>): TableShape[] {
  return names
    .filter((name) => name !== 'schema_migration')
    .sort()
    .map((name) => ({ name, ...describe(name) }))
}

export const sqliteCatalog: Catalog = {
  tables: (sql) =>
    shapes(
      sql
        .rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        .map((r) => r.name),
      (table) => {
        const columns = sql.rows<{ name: string; type: string; pk: number }>(
          'SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid',
          [table]
        )
        const parents = sql.rows<{ parent: string }>('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)', [table])
        return {
          columns: columns.map((c) => c.name),
          primaryKey: columns
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => c.name),
          parents: parents.map((p) => p.parent).filter((p) => p !== table),
          generatedId: columns.some((c) => c.name === 'id' && c.pk === 1 && c.type.toUpperCase() === 'INTEGER')
        }
      }
    ),
  // AUTOINCREMENT's counter (sqlite_sequence) follows the largest id inserted by itself.
  identityReset: () => undefined
}

const inSchema = `JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
  WHERE t.relname = ? AND n.nspname = current_schema()`

export const postgresCatalog: Catalog = {
  tables: (sql) =>
    shapes(
      sql
        .rows<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        .map((r) => r.name),
      (table) => {
        const columns = sql.rows<{ name: string; is_identity: string }>(
          'SELECT column_name AS name, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
          [table]
        )
        return {
          columns: columns.map((c) => c.name),
          generatedId: columns.some((c) => c.name === 'id' && c.is_identity === 'YES'),
          primaryKey: sql
            .rows<{ name: string }>(
              `SELECT a.attname AS name FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, position)
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ${inSchema} AND c.contype = 'p' ORDER BY k.position`,
              [table]
            )
            .map((r) => r.name),
          parents: sql
            .rows<{ parent: string }>(
              `SELECT DISTINCT p.relname AS parent FROM pg_constraint c JOIN pg_class p ON p.oid = c.confrelid ${inSchema} AND c.contype = 'f'`,
              [table]
            )
            .map((r) => r.parent)
            .filter((p) => p !== table)
        }
      }
    ),
  // Identity columns keep their own counter, which rows inserted with their ids leave behind.
  identityReset: (table) => `SELECT setval(pg_get_serial_sequence('${quoted(table)}', 'id'), max(id)) FROM ${quoted(table)}`
}
