// Kysely builds every query; better-sqlite3 runs it synchronously. Synchronous execution means a
// transaction can never interleave with another request on Node's single thread, and the collector's
// one-transaction-per-message costs no promise hops. Queries that run per message are compiled once
// (`prepare`) with named parameter markers and re-bound on each call.
import type BetterSqlite3 from 'better-sqlite3'
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable, type InferResult } from 'kysely'
import type { Schema } from './schema'

export type QueryBuilder = Kysely<Schema>

export function createQueryBuilder(): QueryBuilder {
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler()
    }
  })
}

/** A placeholder for a value bound at execution time. */
class Param {
  constructor(readonly name: string) {}
}

/** Each property read yields a marker for the argument of that name. */
function params<T>(): T {
  return new Proxy({}, { get: (_, name) => new Param(String(name)) }) as T
}

type Row<Q extends Compilable> = InferResult<Q>[number]

export interface Prepared<A, R> {
  run(args: A): BetterSqlite3.RunResult
  get(args: A): R | undefined
  all(args: A): R[]
}

export class SqlRunner {
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
    return this.statement(sql).all(...toSqlite(parameters)) as Row<Q>[]
  }

  first<Q extends Compilable>(query: Q): Row<Q> | undefined {
    const { sql, parameters } = query.compile()
    return this.statement(sql).get(...toSqlite(parameters)) as Row<Q> | undefined
  }

  run(query: Compilable): BetterSqlite3.RunResult {
    const { sql, parameters } = query.compile()
    return this.statement(sql).run(...toSqlite(parameters))
  }

  /**
   * Compile once, run many times: `prepare((p: { id: number }) => db.selectFrom('host').where('id', '=', p.id))`.
   * The builder sees markers in place of the arguments; each call binds them by name.
   */
  prepare<A, Q extends Compilable>(build: (p: A) => Q): Prepared<A, Row<Q>> {
    const { sql, parameters } = build(params<A>()).compile()
    const stmt = this.sqlite.prepare(sql)
    const bind = (args: A): unknown[] =>
      parameters.map((p) => toSqliteValue(p instanceof Param ? (args as Record<string, unknown>)[p.name] : p))
    return {
      run: (args) => stmt.run(...bind(args)),
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
}

function toSqliteValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  return v === undefined ? null : v
}

function toSqlite(parameters: readonly unknown[]): unknown[] {
  return parameters.map(toSqliteValue)
}
