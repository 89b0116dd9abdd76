// The PostgreSQL runner: the SqlRunner contract over one synchronous connection (sync-connection.ts).
// Statements compiled once (`prepare`, and the first few hundred distinct texts of `all`/`first`/`run`)
// become server-side prepared statements, parsed and planned once per connection.
import type { Compilable } from 'kysely'
import { postgresDialect } from '../dialect'
import { bindParams, params, plainSql, toValue, type Prepared, type Row, type RunResult, type SqlRunner } from '../sql'
import type { BridgeQuery } from './bridge-messages'
import type { QueryResult, SyncConnection } from './sync-connection'

/** Distinct dynamic query texts given a prepared statement's name; later ones are parsed each time. */
const MAX_NAMED_TEXTS = 500

export class PostgresRunner implements SqlRunner {
  readonly engine = 'postgres'
  readonly dialect = postgresDialect
  readonly plain = plainSql(this)
  private readonly names = new Map<string, string>()
  private nextName = 0
  private depth = 0
  private readonly rollbackListeners: (() => void)[] = []
  /** Writes of `runLater`, sent with the next statement. */
  private later: BridgeQuery[] = []

  constructor(readonly connection: SyncConnection) {}

  private query(text: string, values: readonly unknown[]): QueryResult {
    let name = this.names.get(text)
    if (!name && this.names.size < MAX_NAMED_TEXTS) {
      name = `q${this.nextName++}`
      this.names.set(text, name)
    }
    return this.send(text, values.map(toValue), name)
  }

  /** One statement, after the writes waiting to go with it (one round trip for all). */
  private send(text: string, values: unknown[] = [], name?: string): QueryResult {
    if (this.later.length === 0) return this.connection.query(text, values, name)
    const queries = [...this.later, { text, values, name }]
    this.later = []
    return this.connection.queries(queries)
  }

  all<Q extends Compilable>(query: Q): Row<Q>[] {
    const { sql, parameters } = query.compile()
    return this.query(sql, parameters).rows as Row<Q>[]
  }

  first<Q extends Compilable>(query: Q): Row<Q> | undefined {
    return this.all(query)[0]
  }

  run(query: Compilable): RunResult {
    const { sql, parameters } = query.compile()
    return { changes: this.query(sql, parameters).rowCount }
  }

  prepare<A, Q extends Compilable>(build: (p: A) => Q): Prepared<A, Row<Q>> {
    const { sql, parameters } = build(params<A>()).compile()
    const name = `p${this.nextName++}`
    const exec = (args: A) => this.send(sql, bindParams(parameters, args), name)
    return {
      run: (args) => ({ changes: exec(args).rowCount }),
      // Outside a transaction nothing would send it soon: it runs at once.
      runLater: (args) => {
        if (this.depth === 0) exec(args)
        else this.later.push({ text: sql, values: bindParams(parameters, args), name })
      },
      get: (args) => exec(args).rows[0] as Row<Q> | undefined,
      all: (args) => exec(args).rows as Row<Q>[]
    }
  }

  rows<T = Record<string, unknown>>(text: string, args: readonly unknown[] = []): T[] {
    return this.query(numberedMarkers(text), args).rows as T[]
  }

  execute(text: string, args: readonly unknown[] = []): RunResult {
    // Without arguments: PostgreSQL's simple protocol, which takes several statements at once.
    if (args.length === 0) return { changes: this.send(text).rowCount }
    return { changes: this.query(numberedMarkers(text), args).rowCount }
  }

  transaction<T>(fn: () => T): T {
    const savepoint = this.depth > 0 ? `s${this.depth}` : undefined
    this.send(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN')
    this.depth++
    try {
      const result = fn()
      // Releasing a savepoint sends its waiting writes too: their errors stay within it.
      this.send(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT')
      return result
    } catch (err) {
      this.rollBack(savepoint)
      throw err
    } finally {
      this.depth--
    }
  }

  private rollBack(savepoint: string | undefined): void {
    // Writes not sent yet belong to what is rolled back.
    this.later = []
    try {
      this.connection.query(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}` : 'ROLLBACK')
    } catch {
      // A lost connection has rolled the transaction back by itself.
    } finally {
      for (const listener of this.rollbackListeners) listener()
    }
  }

  /** PostgreSQL locks rows, not the database: no writer waits for a whole-database lock. */
  withoutWaiting(write: () => void): boolean {
    write()
    return true
  }

  /** PostgreSQL's autovacuum reclaims space; the rollup job has nothing to hand back. */
  canVacuum(): boolean {
    return false
  }

  vacuumStep(): boolean {
    return false
  }

  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener)
  }

  databaseBytes(): number {
    return this.rows<{ n: number }>('SELECT pg_database_size(current_database()) AS n')[0].n
  }

  close(): void {
    this.connection.close()
  }
}

/** `?` markers (outside quotes) as PostgreSQL's `$1`, `$2`… */
export function numberedMarkers(text: string): string {
  let n = 0
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (m) => (m === '?' ? `$${++n}` : m))
}
