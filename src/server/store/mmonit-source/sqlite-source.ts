// An M/Monit SQLite file, opened read-only: safe beside a running M/Monit (its WAL lets readers in).
import Database from 'better-sqlite3'
import { checkNames, SourceError, type MMonitSource, type PageQuery, type SourceFilter, type SourceRow, type SourceValue } from './source'

export class SqliteSource implements MMonitSource {
  readonly kind = 'sqlite'
  private tableNames?: ReadonlySet<string>
  private readonly columnNames = new Map<string, ReadonlySet<string>>()

  private constructor(private readonly db: Database.Database) {}

  static async open(path: string): Promise<SqliteSource> {
    let db
    try {
      db = new Database(path, { readonly: true, fileMustExist: true })
      db.pragma('busy_timeout = 5000')
      // A file that is no SQLite database fails here, not halfway through the import.
      db.prepare('SELECT count(*) FROM sqlite_master').get()
    } catch (e) {
      db?.close()
      throw new SourceError(`${path}: cannot open as an SQLite database (${(e as Error).message})`)
    }
    return new SqliteSource(db)
  }

  async tables(): Promise<ReadonlySet<string>> {
    this.tableNames ??= new Set(
      (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name.toLowerCase())
    )
    return this.tableNames
  }

  async columns(table: string): Promise<ReadonlySet<string>> {
    if (!(await this.tables()).has(table)) throw new SourceError(`the M/Monit database has no table ${table}`)
    let names = this.columnNames.get(table)
    if (!names) {
      const info = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]
      names = new Set(info.map((c) => c.name.toLowerCase()))
      this.columnNames.set(table, names)
    }
    return names
  }

  async count(table: string, where?: SourceFilter): Promise<number> {
    await checkNames(this, table, where ? [where.column] : [])
    const sql = `SELECT count(*) AS n FROM ${quote(table)}${where ? ` WHERE ${quote(where.column)} >= ?` : ''}`
    const row = this.db.prepare(sql).get(...(where ? [where.min] : [])) as { n: number }
    return row.n
  }

  async page(query: PageQuery): Promise<SourceRow[]> {
    const { table, columns, key, after, limit, where } = query
    await checkNames(this, table, [...columns, ...key, ...(where ? [where.column] : [])])
    if (key.length === 0) throw new SourceError(`paging ${table} needs a key`)
    if (after && after.length !== key.length)
      throw new SourceError(`paging ${table}: the key has ${key.length} columns, after has ${after.length}`)
    const conditions: string[] = []
    const params: SourceValue[] = []
    if (after) {
      conditions.push(`(${key.map(quote).join(', ')}) > (${key.map(() => '?').join(', ')})`)
      params.push(...after)
    }
    if (where) {
      conditions.push(`${quote(where.column)} >= ?`)
      params.push(where.min)
    }
    const sql =
      `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)}` +
      (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
      ` ORDER BY ${key.map(quote).join(', ')} LIMIT ?`
    const rows = this.db.prepare(sql).all(...params, limit) as Record<string, unknown>[]
    return rows.map(plainRow)
  }

  async close(): Promise<void> {
    this.db.close()
  }
}

/** Names are checked against the schema first; quoting is for names that are SQL keywords (`event`, `rule`). */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

function plainRow(row: Record<string, unknown>): SourceRow {
  const plain: SourceRow = {}
  for (const [name, value] of Object.entries(row)) {
    plain[name.toLowerCase()] =
      value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : typeof value === 'bigint' ? Number(value) : (value as SourceValue)
  }
  return plain
}
