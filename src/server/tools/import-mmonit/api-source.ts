// M/Monit read over its HTTP API (`import-mmonit --from-api https://user:pass@host:port`) when its database
// cannot be reached: the API's answers laid out as its tables (api-source-tables.ts), read once at
// open, then paged like any other source, so that the database import's steps and writers do the rest.
// The tables are held in memory: fine for what the API lists (hosts, users, groups, events); an
// installation with millions of events is better imported from its database.
import { MMonitApiSession } from './api-source-session'
import { API_CANNOT_GIVE, readApiTables, type Table } from './api-source-tables'
import {
  checkNames,
  SourceError,
  type MMonitSource,
  type PageQuery,
  type SourceFilter,
  type SourceRow,
  type SourceValue
} from '../../store/mmonit-source/source'

export class ApiSource implements MMonitSource {
  readonly kind = 'api'
  /** Each table's rows sorted by a key, kept for the next page. */
  private readonly sorted = new Map<string, SourceRow[]>()

  private constructor(
    private readonly tableRows: Map<string, Table>,
    /** What the API cannot give, and what of what it listed could not be read (custom roles, unknown event types). */
    readonly limits: readonly string[]
  ) {}

  static async open(url: string): Promise<ApiSource> {
    const api = await MMonitApiSession.login(url)
    try {
      const { tables, notes } = await readApiTables(api)
      return new ApiSource(tables, [...API_CANNOT_GIVE, ...notes])
    } finally {
      await api.logout()
    }
  }

  async tables(): Promise<ReadonlySet<string>> {
    return new Set(this.tableRows.keys())
  }

  async columns(table: string): Promise<ReadonlySet<string>> {
    return new Set(this.table(table).columns)
  }

  async count(table: string, where?: SourceFilter): Promise<number> {
    await checkNames(this, table, where ? [where.column] : [])
    return this.table(table).rows.filter((r) => matches(r, where)).length
  }

  async page({ table, columns, key, after, limit, where }: PageQuery): Promise<SourceRow[]> {
    await checkNames(this, table, [...columns, ...key, ...(where ? [where.column] : [])])
    if (key.length === 0) throw new SourceError(`paging ${table} needs a key`)
    const tuple = (r: SourceRow) => key.map((c) => r[c] ?? null)
    const sortKey = `${table}\u0000${key.join(',')}`
    let rows = this.sorted.get(sortKey)
    if (!rows) this.sorted.set(sortKey, (rows = [...this.table(table).rows].sort((a, b) => compare(tuple(a), tuple(b)))))
    const page: SourceRow[] = []
    for (const r of rows) {
      if (page.length >= limit) break
      if (matches(r, where) && (!after || compare(tuple(r), after) > 0))
        page.push(Object.fromEntries(columns.map((c) => [c, r[c] ?? null])))
    }
    return page
  }

  async close(): Promise<void> {}

  private table(name: string): Table {
    const table = this.tableRows.get(name)
    if (!table) throw new SourceError(`M/Monit's API gives no ${name}`)
    return table
  }
}

function matches(row: SourceRow, where: SourceFilter | undefined): boolean {
  return !where || (typeof row[where.column] === 'number' && (row[where.column] as number) >= where.min)
}

/** Key tuples in SQL's order for the values the tables hold: numbers by value, text by code point. */
function compare(a: readonly SourceValue[], b: readonly SourceValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]]
    if (x === y) continue
    if (x === null || y === null) return x === null ? -1 : 1
    if (typeof x === 'number' && typeof y === 'number') return x - y
    return String(x) < String(y) ? -1 : 1
  }
  return 0
}
