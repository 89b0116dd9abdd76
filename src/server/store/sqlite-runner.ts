// The SQLite runner: better-sqlite3's synchronous calls, statements cached per SQL text.
import type BetterSqlite3 from 'better-sqlite3'
import type { Compilable } from 'kysely'
import { databaseBytes } from './database-size'
import { sqliteDialect } from './dialect'
import { bindParams, params, plainSql, toValue, type Prepared, type Row, type RunResult, type SqlRunner } from './sql'

export class SqliteRunner implements SqlRunner {
  readonly engine = 'sqlite'
  readonly dialect = sqliteDialect
  readonly plain = plainSql(this)
  private readonly cache = new Map<string, BetterSqlite3.Statement>()
  /** better-sqlite3 builds a wrapper per transaction function: build one, run any callback in it. */
  private readonly inTransaction: BetterSqlite3.Transaction<(fn: () => unknown) => unknown>
  private readonly rollbackListeners: (() => void)[] = []

  constructor(readonly sqlite: BetterSqlite3.Database) {
    this.inTransaction = sqlite.transaction((fn: () => unknown) => fn())
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let stmt = this.cache.get(sql)
    if (!stmt) {
      stmt = this.sqlite.prepare(sql)
      // Dynamic queries (filters, paging) vary in shape; keep the cache bounded.
      if (this.cache.size > 500) this.cache.clear()
      this.cache.set(sql, stmt)
    }
    return stmt
  }

  all<Q extends Compilable>(query: Q): Row<Q>[] {
    const { sql, parameters } = query.compile()
    return this.statement(sql).all(...parameters.map(toValue)) as Row<Q>[]
  }

  first<Q extends Compilable>(query: Q): Row<Q> | undefined {
    const { sql, parameters } = query.compile()
    return this.statement(sql).get(...parameters.map(toValue)) as Row<Q> | undefined
  }

  run(query: Compilable): RunResult {
    const { sql, parameters } = query.compile()
    return this.statement(sql).run(...parameters.map(toValue))
  }

  /**
   * Compile once, run many times: `prepare((p: { id: number }) => db.selectFrom('host').where('id', '=', p.id))`.
   * The builder sees markers in place of the arguments; each call binds them by name.
   */
  prepare<A, Q extends Compilable>(build: (p: A) => Q): Prepared<A, Row<Q>> {
    const { sql, parameters } = build(params<A>()).compile()
    const stmt = this.sqlite.prepare(sql)
    const bind = (args: A): unknown[] => bindParams(parameters, args)
    return {
      run: (args) => stmt.run(...bind(args)),
      runLater: (args) => void stmt.run(...bind(args)),
      get: (args) => stmt.get(...bind(args)) as Row<Q> | undefined,
      all: (args) => stmt.all(...bind(args)) as Row<Q>[]
    }
  }

  /** Runs `fn` in an IMMEDIATE transaction, or in a savepoint when one is already open. */
  transaction<T>(fn: () => T): T {
    try {
      return this.inTransaction.immediate(fn) as T
    } catch (err) {
      for (const listener of this.rollbackListeners) listener()
      throw err
    }
  }

  /** Runs `write` if the write lock is free now: false, with nothing written, when SQLite answered busy. */
  withoutWaiting(write: () => void): boolean {
    const timeout = this.sqlite.pragma('busy_timeout', { simple: true }) as number
    this.sqlite.pragma('busy_timeout = 0')
    try {
      write()
      return true
    } catch (err) {
      if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false
      throw err
    } finally {
      this.sqlite.pragma(`busy_timeout = ${timeout}`)
    }
  }

  /** Freed pages can only be handed back when the file was created with auto_vacuum=INCREMENTAL. */
  canVacuum(): boolean {
    return this.sqlite.pragma('auto_vacuum', { simple: true }) === 2
  }

  /** Hands up to `pages` free pages back to the file system; false when there were none. */
  vacuumStep(pages: number): boolean {
    const free = this.sqlite.pragma('freelist_count', { simple: true }) as number
    if (free === 0) return false
    this.sqlite.pragma(`incremental_vacuum(${pages})`)
    return true
  }

  /** `listener` runs after any transaction or savepoint of `transaction` is rolled back: what it wrote is gone. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener)
  }

  rows<T = Record<string, unknown>>(text: string, args: readonly unknown[] = []): T[] {
    return this.statement(text).all(...args.map(toValue)) as T[]
  }

  execute(text: string, args: readonly unknown[] = []): RunResult {
    if (args.length === 0) {
      const before = this.sqlite.prepare('SELECT total_changes() AS n').pluck().get() as number
      this.sqlite.exec(text)
      return { changes: (this.sqlite.prepare('SELECT total_changes() AS n').pluck().get() as number) - before }
    }
    const stmt = this.statement(text)
    if (stmt.reader) {
      stmt.all(...args.map(toValue))
      return { changes: 0 }
    }
    return stmt.run(...args.map(toValue))
  }

  databaseBytes(): number {
    return databaseBytes(this.sqlite.name)
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close()
  }
}
