// Kysely builds every query; a runner executes it synchronously on its engine: better-sqlite3 for the
// embedded SQLite file, a PostgreSQL connection on its own thread for larger installs (postgres/). Being
// synchronous means a transaction never interleaves with another request on Node's single thread, and the
// repositories, their transactions and the collector's batches are one code for both engines. Queries
// that run per message are compiled once (`prepare`) with named parameter markers and re-bound on each call.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type InferResult
} from 'kysely'
import type { Dialect } from './dialect'
import type { Schema } from './schema'

export type QueryBuilder = Kysely<Schema>

export type Engine = 'sqlite' | 'postgres'

export function createQueryBuilder(engine: Engine = 'sqlite'): QueryBuilder {
  return new Kysely<Schema>({
    dialect:
      engine === 'sqlite'
        ? {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new SqliteIntrospector(db),
            createQueryCompiler: () => new SqliteQueryCompiler()
          }
        : {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new PostgresIntrospector(db),
            createQueryCompiler: () => new PostgresQueryCompiler()
          }
  })
}

/** A placeholder for a value bound at execution time. */
export class Param {
  constructor(readonly name: string) {}
}

/** Each property read yields a marker for the argument of that name. */
export function params<T>(): T {
  return new Proxy({}, { get: (_, name) => new Param(String(name)) }) as T
}

/** The values of a prepared query's parameters, markers replaced by the call's arguments. */
export function bindParams<A>(parameters: readonly unknown[], args: A): unknown[] {
  return parameters.map((p) => toValue(p instanceof Param ? (args as Record<string, unknown>)[p.name] : p))
}

export type Row<Q extends Compilable> = InferResult<Q>[number]

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number
}

export interface Prepared<A, R> {
  run(args: A): RunResult
  /**
   * A write whose result nobody reads, on the collector's hot path. SQLite runs it at once. PostgreSQL,
   * inside a transaction, sends it with the runner's next statement (a read, a savepoint, the commit):
   * one round trip for several writes. Its error surfaces there, still inside the same transaction.
   */
  runLater(args: A): void
  get(args: A): R | undefined
  all(args: A): R[]
}

/**
 * A statement comparing a nullable column with an argument that may be null: one statement prepared for a
 * null argument (`IS NULL`) and one for a value (`=`), picked per call. PostgreSQL takes no parameter after
 * IS, and its `IS NOT DISTINCT FROM` cannot use an index.
 */
export function preparedForNullable<A, R>(isNull: (args: A) => boolean, prepare: (forNull: boolean) => Prepared<A, R>): Prepared<A, R> {
  const forNull = prepare(true)
  const forValue = prepare(false)
  const pick = (args: A) => (isNull(args) ? forNull : forValue)
  return {
    run: (args) => pick(args).run(args),
    runLater: (args) => pick(args).runLater(args),
    get: (args) => pick(args).get(args),
    all: (args) => pick(args).all(args)
  }
}

/** What the repositories run queries with, whichever the engine. */
export interface SqlRunner {
  readonly engine: Engine
  /** The engine's own spelling of what standard SQL leaves open (dialect.ts). */
  readonly dialect: Dialect
  all<Q extends Compilable>(query: Q): Row<Q>[]
  first<Q extends Compilable>(query: Q): Row<Q> | undefined
  run(query: Compilable): RunResult
  prepare<A, Q extends Compilable>(build: (p: A) => Q): Prepared<A, Row<Q>>
  /** Plain SQL with `?` markers, for migrations, tools and tests: rows of a query. */
  rows<T = Record<string, unknown>>(text: string, args?: readonly unknown[]): T[]
  /** Plain SQL with `?` markers: what a statement changed. Without arguments, several statements may follow each other. */
  execute(text: string, args?: readonly unknown[]): RunResult
  /** `rows` and `execute` in better-sqlite3's shape, for tools and tests that write plain SQL for both engines. */
  readonly plain: PlainSql
  /** Runs `fn` in a transaction that takes the write lock at once, or in a savepoint when one is open. */
  transaction<T>(fn: () => T): T
  /** Runs `write` if the write lock is free now: false, with nothing written, when the engine answered busy. */
  withoutWaiting(write: () => void): boolean
  /** Whether vacuumStep can hand pages back to the file system. */
  canVacuum(): boolean
  /** Hands up to `pages` free pages back to the file system; false when there were none. */
  vacuumStep(pages: number): boolean
  /** `listener` runs after any transaction or savepoint of `transaction` is rolled back: what it wrote is gone. */
  onRollback(listener: () => void): void
  /** The database's size on disk, in bytes. */
  databaseBytes(): number
  close(): void
}

export interface PlainStatement {
  all(...args: unknown[]): unknown[]
  get(...args: unknown[]): unknown
  run(...args: unknown[]): RunResult
}

export interface PlainSql {
  prepare(text: string): PlainStatement
  exec(text: string): void
}

export function plainSql(runner: Pick<SqlRunner, 'rows' | 'execute'>): PlainSql {
  return {
    prepare: (text) => ({
      all: (...args) => runner.rows(text, args),
      get: (...args) => runner.rows(text, args)[0],
      run: (...args) => runner.execute(text, args)
    }),
    exec: (text) => void runner.execute(text)
  }
}

export function toValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  return v === undefined ? null : v
}
