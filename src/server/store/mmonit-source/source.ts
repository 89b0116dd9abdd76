// Where an M/Monit database is read from: one interface for its three engines, so that every import step
// reads the same rows from SQLite, MySQL/MariaDB or PostgreSQL. Reads go in keyset pages (never OFFSET,
// never a whole table in memory), and every table and column name is checked against the database's own
// before it is put into SQL.
export type SourceValue = number | string | null
export type SourceRow = Record<string, SourceValue>

export interface MMonitSource {
  readonly kind: 'sqlite' | 'mysql' | 'postgresql' | 'api'
  /** What this source cannot give at all (the API: statistics history, rules …): the report lists it. */
  readonly limits?: readonly string[]
  /** Lower-case table names present. */
  tables(): Promise<ReadonlySet<string>>
  /** Lower-case column names of a table. */
  columns(table: string): Promise<ReadonlySet<string>>
  count(table: string, where?: SourceFilter): Promise<number>
  /**
   * Rows in ascending order of `key` after the key tuple `after` (keyset paging), at most `limit`;
   * 64-bit integers come as numbers, BLOBs as strings (UTF-8). Table/column names are validated
   * against tables()/columns() before any SQL is built.
   */
  page(query: PageQuery): Promise<SourceRow[]>
  close(): Promise<void>
}

/** Rows whose `column` is at least `min`: `collectedsec >= --since`. */
export interface SourceFilter {
  column: string
  min: number
}

export interface PageQuery {
  table: string
  columns: readonly string[]
  key: readonly string[]
  after?: readonly SourceValue[]
  limit: number
  where?: SourceFilter
}

/** What the user can fix about the source: a missing file, an unknown URL, a table or column it lacks. */
export class SourceError extends Error {}

/** `sqlite:PATH` or `sqlite:///abs/path?options` (M/Monit's form: the options are its own pragmas). */
export function sqlitePath(url: string): string {
  let path = url.slice('sqlite:'.length)
  if (path.startsWith('//')) path = path.slice(2)
  const query = path.indexOf('?')
  if (query >= 0) path = path.slice(0, query)
  if (path === '') throw new SourceError(`${url}: no file named`)
  return path
}

/** Checks a table and its columns against what the source holds; throws SourceError naming what is missing. */
export async function checkNames(source: MMonitSource, table: string, columns: readonly string[]): Promise<void> {
  if (!(await source.tables()).has(table)) throw new SourceError(`the M/Monit database has no table ${table}`)
  const present = await source.columns(table)
  const missing = columns.filter((c) => !present.has(c))
  if (missing.length > 0) throw new SourceError(`the M/Monit table ${table} has no column ${missing.join(', ')}`)
}

/** `url` with the password replaced: safe to print. */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href)
  if (shown.password !== '') shown.password = '***'
  return shown.href
}
