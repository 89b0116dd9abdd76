// What SQLite and PostgreSQL spell differently, one place per engine: the repositories ask their runner's
// dialect instead of writing either spelling.
import { sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely'
import { postgresCatalog, sqliteCatalog, type Catalog } from './catalog'

export interface Dialect {
  /**
   * Ids for `IN`: one parameter whatever their number, so the SQL text (and its cached statement) does not
   * vary with the length of the list.
   */
  idList(ids: readonly number[]): Expression<number>
  /** `column` contains `text` anywhere, ignoring case, `text`'s own wildcards taken literally. */
  contains(column: string, text: string): Expression<SqlBool>
  /** `column` equals `text`, ignoring case. */
  equalsIgnoringCase(column: string, text: string): Expression<SqlBool>
  /** The smaller of two numbers (SQLite's two-argument min(), PostgreSQL's LEAST). */
  smaller(a: Expression<number>, b: Expression<number> | number): RawBuilder<number>
  /** A join that keeps the order written: SQLite plans CROSS JOIN's left table as the outer loop. */
  readonly orderedJoin: RawBuilder<unknown>
  /**
   * The rows read stay locked until the transaction ends, so that writers of other instances take turns
   * (PostgreSQL's FOR UPDATE); SQLite's write transaction excludes every other writer already.
   */
  lockingRead<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>
  /**
   * Rows given column by column, one array parameter per column, as table `alias`: several rows written
   * by one statement (one round trip and one plan instead of one per row). PostgreSQL only: SQLite runs
   * a prepared statement per row in process, as fast.
   */
  readonly arrayRows?: <O, A extends string>(alias: A, columns: ColumnArrays<O>) => AliasedRawBuilder<O, A>
  /** The tables as the engine's catalog describes them. */
  readonly catalog: Catalog
}

/** For each column of `arrayRows`: its values' SQL type and the parameter holding them. */
export type ColumnArrays<O> = { [K in keyof O & string]: { type: 'bigint' | 'text'; values: unknown } }

/** A LIKE pattern matching `text` anywhere, its own wildcards taken literally (escape character `\`). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export const sqliteDialect: Dialect = {
  idList: (ids) => sql<number>`(SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  // SQLite's LIKE ignores ASCII case.
  contains: (column, text) => sql<SqlBool>`${sql.ref(column)} LIKE ${likeContaining(text)} ESCAPE '\\'`,
  equalsIgnoringCase: (column, text) => sql<SqlBool>`${sql.ref(column)} = ${text} COLLATE NOCASE`,
  smaller: (a, b) => sql<number>`min(${a}, ${b})`,
  orderedJoin: sql`CROSS JOIN`,
  lockingRead: (query) => query,
  catalog: sqliteCatalog
}

export const postgresDialect: Dialect = {
  idList: (ids) => sql<number>`(SELECT unnest(${[...ids]}::bigint[]))`,
  contains: (column, text) => sql<SqlBool>`${sql.ref(column)} ILIKE ${likeContaining(text)} ESCAPE '\\'`,
  equalsIgnoringCase: (column, text) => sql<SqlBool>`lower(${sql.ref(column)}) = lower(${text})`,
  smaller: (a, b) => sql<number>`LEAST(${a}, ${b})`,
  // PostgreSQL's planner orders joins itself (and CROSS JOIN takes no ON).
  orderedJoin: sql`JOIN`,
  lockingRead: (query) => query.forUpdate(),
  arrayRows: <O, A extends string>(alias: A, columns: ColumnArrays<O>) => {
    const entries = Object.entries<{ type: string; values: unknown }>(columns)
    const arrays = entries.map(([, c]) => sql`${c.values}::${sql.raw(c.type)}[]`)
    const names = entries.map(([name]) => sql.ref(name))
    return sql<O>`unnest(${sql.join(arrays)})`.as<A>(sql`${sql.ref(alias)}(${sql.join(names)})`)
  },
  catalog: postgresCatalog
}
