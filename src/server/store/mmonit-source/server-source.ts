// What the MySQL/MariaDB and PostgreSQL sources share: the catalogue read once (every table and column
// name checked against it, and spelled as the server spells it, before any SQL is built), the keyset
// page query, the page size bound, and the values turned into the source's plain ones. Each engine
// supplies its connection, quoting and catalogue queries.
import { checkNames, SourceError, type MMonitSource, type PageQuery, type SourceFilter, type SourceRow, type SourceValue } from './source'

/** The most rows one page may ask for (as --batch-rows allows): a page is held in memory whole. */
const MAX_PAGE_ROWS = 100_000

/** One statement's rows, each a column → value map with the column names as the server gave them. */
export type EngineRows = Record<string, unknown>[]

export abstract class ServerSource implements MMonitSource {
  abstract readonly kind: 'mysql' | 'postgresql'
  /** Lower-case name → the name as the catalogue spells it. */
  private tableNames?: Map<string, string>
  private readonly columnNames = new Map<string, Map<string, string>>()

  /** `url` with its password hidden: what errors and progress lines show. */
  protected constructor(protected readonly shownUrl: string) {}

  /** Runs one statement with `params` bound to the placeholders placeholder(0), placeholder(1)… */
  protected abstract query(sql: string, params: readonly SourceValue[]): Promise<EngineRows>
  protected abstract quote(name: string): string
  protected abstract placeholder(index: number): string
  /** Base tables of the database (or schema) the URL names: one row per table, in column `name`. */
  protected abstract tablesSql: string
  /** Columns of one table, `name` per row; the table name is bound to placeholder(0). */
  protected abstract columnsSql: string
  abstract close(): Promise<void>

  async tables(): Promise<ReadonlySet<string>> {
    return new Set((await this.tableMap()).keys())
  }

  async columns(table: string): Promise<ReadonlySet<string>> {
    return new Set((await this.columnMap(table)).keys())
  }

  async count(table: string, where?: SourceFilter): Promise<number> {
    await checkNames(this, table, where ? [where.column] : [])
    const params: SourceValue[] = where ? [where.min] : []
    const filter = where ? ` WHERE ${await this.column(table, where.column)} >= ${this.placeholder(0)}` : ''
    const [row] = await this.query(`SELECT count(*) AS n FROM ${await this.table(table)}${filter}`, params)
    return integerOf(Object.values(row)[0], `count of ${table}`)
  }

  async page(query: PageQuery): Promise<SourceRow[]> {
    const { table, columns, key, after, limit, where } = query
    await checkNames(this, table, [...columns, ...key, ...(where ? [where.column] : [])])
    if (key.length === 0) throw new SourceError(`paging ${table} needs a key`)
    if (after && after.length !== key.length)
      throw new SourceError(`paging ${table}: the key has ${key.length} columns, after has ${after.length}`)
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_ROWS)
      throw new SourceError(`paging ${table}: a page holds 1 to ${MAX_PAGE_ROWS} rows, not ${limit}`)
    const keyColumns = await Promise.all(key.map((c) => this.column(table, c)))
    const conditions: string[] = []
    const params: SourceValue[] = []
    if (after) {
      const marks = after.map((_, i) => this.placeholder(i))
      conditions.push(`(${keyColumns.join(', ')}) > (${marks.join(', ')})`)
      params.push(...after)
    }
    if (where) {
      conditions.push(`${await this.column(table, where.column)} >= ${this.placeholder(params.length)}`)
      params.push(where.min)
    }
    // Selected under the lower-case names the caller asked for, whatever the catalogue's spelling.
    const selected = await Promise.all(columns.map(async (c) => `${await this.column(table, c)} AS ${this.quote(c)}`))
    const sql =
      `SELECT ${selected.join(', ')} FROM ${await this.table(table)}` +
      (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
      ` ORDER BY ${keyColumns.join(', ')} LIMIT ${limit}`
    const rows = await this.query(sql, params)
    return rows.map((row) => plainRow(row, table))
  }

  private async tableMap(): Promise<Map<string, string>> {
    this.tableNames ??= spellings(await this.query(this.tablesSql, []))
    return this.tableNames
  }

  private async columnMap(table: string): Promise<Map<string, string>> {
    const spelled = (await this.tableMap()).get(table)
    if (spelled === undefined) throw new SourceError(`the M/Monit database has no table ${table}`)
    let names = this.columnNames.get(table)
    if (!names) {
      names = spellings(await this.query(this.columnsSql, [spelled]))
      this.columnNames.set(table, names)
    }
    return names
  }

  /** The quoted table name as the catalogue spells it (checked by the caller). */
  private async table(table: string): Promise<string> {
    return this.quote((await this.tableMap()).get(table)!)
  }

  private async column(table: string, column: string): Promise<string> {
    return this.quote((await this.columnMap(table)).get(column)!)
  }
}

function spellings(rows: EngineRows): Map<string, string> {
  const names = new Map<string, string>()
  for (const row of rows) {
    const name = String(Object.values(row)[0])
    names.set(name.toLowerCase(), name)
  }
  return names
}

function plainRow(row: Record<string, unknown>, table: string): SourceRow {
  const plain: SourceRow = {}
  for (const [name, value] of Object.entries(row)) plain[name.toLowerCase()] = plainValue(value, `${table}.${name}`)
  return plain
}

/**
 * Numbers stay numbers; 64-bit integers, which the drivers hand over as text (or bigint) to keep them
 * exact, become numbers when they fit in a double exactly, and are refused when they do not (an id
 * rounded would join the wrong rows). Bytes are UTF-8 text, times Unix seconds.
 */
function plainValue(value: unknown, where: string): SourceValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'number' || typeof value === 'string') return value
  if (typeof value === 'bigint') return integerOf(value, where)
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  if (value instanceof Date) return Math.floor(value.getTime() / 1000)
  throw new SourceError(`${where}: a value of an unexpected kind (${typeof value})`)
}

/** A 64-bit integer (number, bigint or decimal text) as a number; a SourceError if it is not exact. */
function integerOf(value: unknown, where: string): number {
  const text = String(value).trim()
  if (!/^-?\d+$/.test(text)) throw new SourceError(`${where}: expected an integer, found ${JSON.stringify(text.slice(0, 40))}`)
  const big = BigInt(text)
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER))
    throw new SourceError(`${where}: ${text} is beyond the integers this importer keeps exactly (±${Number.MAX_SAFE_INTEGER})`)
  return Number(big)
}
