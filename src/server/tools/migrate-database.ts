// `overseer migrate`: copies a whole database from one engine to the other (SQLite file ⇄ PostgreSQL),
// table by table in foreign-key order, in batches read in primary-key order, then checks that every
// table holds as many rows as the source's and moves PostgreSQL's id generators past the copied ids.
// Both ends are opened as the server opens them, so the target's schema is migrated first.
import type { TableShape } from '../store/catalog'
import { Store } from '../store/store'
import { TableRows } from '../store/table-rows'

export interface CopyProgress {
  table(name: string, total: number): void
  rows(copied: number): void
  tableDone(): void
}

export interface MigrateOptions {
  /** A SQLite file's path or a postgres:// URL, as Store takes them. */
  from: string
  to: string
  /** Empties a target that already holds data instead of refusing. */
  force?: boolean
  batchRows?: number
  progress?: CopyProgress
  log?: (line: string) => void
}

export interface MigrationReport {
  tables: { name: string; rows: number }[]
  rows: number
  seconds: number
}

/** What the user can fix: a target holding data, schemas that differ, counts that do not match. */
export class MigrationError extends Error {}

export const DEFAULT_BATCH_ROWS = 5000
/** Tables whose rows the target's triggers add as their parents are copied (host_uptime: one per host, migration 023): emptied before their own copy. */
const ADDED_BY_TRIGGERS = new Set(['host_uptime'])

export function migrateDatabase(options: MigrateOptions): MigrationReport {
  const started = performance.now()
  const source = new Store(options.from, options.log)
  let target: Store | undefined
  try {
    target = new Store(options.to, options.log)
    const from = new TableRows(source.sql)
    const to = new TableRows(target.sql)
    const tables = copyOrder(from.tables())
    assertSameTables(tables, to.tables())
    const occupied = tablesHoldingData(to, tables)
    if (occupied.length > 0 && !options.force) {
      throw new MigrationError(`the target already holds data (${occupied.join(', ')}): pass --force to empty it first`)
    }
    for (const table of [...tables].reverse()) to.deleteAll(table.name)
    const copied = tables.map((table) => {
      if (ADDED_BY_TRIGGERS.has(table.name)) to.deleteAll(table.name)
      return { name: table.name, rows: copyTable(from, to, table, options) }
    })
    assertSameCounts(from, to, tables)
    for (const table of tables) to.resetIdentity(table)
    return { tables: copied, rows: copied.reduce((sum, t) => sum + t.rows, 0), seconds: (performance.now() - started) / 1000 }
  } finally {
    target?.close()
    source.close()
  }
}

function copyTable(from: TableRows, to: TableRows, table: TableShape, options: MigrateOptions): number {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  options.progress?.table(table.name, from.count(table.name))
  let copied = 0
  let after: unknown[] | undefined
  for (;;) {
    const rows = from.batch(table, after, batchRows)
    if (rows.length === 0) break
    to.insert(table, rows)
    copied += rows.length
    options.progress?.rows(copied)
    const last = rows[rows.length - 1]
    after = table.primaryKey.map((column) => last[column])
    if (rows.length < batchRows) break
  }
  options.progress?.tableDone()
  return copied
}

/**
 * Parents before children. `setting` last: the triggers counting alert configuration changes write to it
 * while the alert tables are copied, and copied last it ends with the source's own values.
 */
export function copyOrder(tables: TableShape[]): TableShape[] {
  const ordered: TableShape[] = []
  const placed = new Set<string>()
  const pending = [...tables].sort((a, b) => Number(a.name === 'setting') - Number(b.name === 'setting') || a.name.localeCompare(b.name))
  while (pending.length > 0) {
    const next = pending.findIndex((t) => t.parents.every((p) => placed.has(p)))
    if (next < 0) throw new MigrationError(`foreign keys form a cycle among ${pending.map((t) => t.name).join(', ')}`)
    const [table] = pending.splice(next, 1)
    ordered.push(table)
    placed.add(table.name)
  }
  return ordered
}

function assertSameTables(source: TableShape[], target: TableShape[]): void {
  const describe = (t: TableShape) => `${t.name}(${[...t.columns].sort().join(', ')})`
  const targetShapes = new Set(target.map(describe))
  const differing = source.filter((t) => !targetShapes.has(describe(t))).map((t) => t.name)
  if (differing.length > 0 || source.length !== target.length) {
    throw new MigrationError(
      `the two databases' tables differ (${differing.join(', ') || 'extra tables in the target'}): are both at the same schema version?`
    )
  }
  const keyless = source.filter((t) => t.primaryKey.length === 0).map((t) => t.name)
  if (keyless.length > 0) throw new MigrationError(`tables without a primary key cannot be copied in batches: ${keyless.join(', ')}`)
}

/** Tables holding more rows than a freshly migrated database (which has the built-in roles and a setting). */
function tablesHoldingData(target: TableRows, tables: TableShape[]): string[] {
  const fresh = new Store(':memory:')
  try {
    const freshRows = new TableRows(fresh.sql)
    return tables.filter((t) => target.count(t.name) > freshRows.count(t.name)).map((t) => t.name)
  } finally {
    fresh.close()
  }
}

function assertSameCounts(from: TableRows, to: TableRows, tables: TableShape[]): void {
  const mismatched = tables
    .map((t) => ({ name: t.name, source: from.count(t.name), target: to.count(t.name) }))
    .filter((c) => c.source !== c.target)
  if (mismatched.length > 0) {
    const detail = mismatched.map((c) => `${c.name}: ${c.source} in the source, ${c.target} in the target`).join('; ')
    throw new MigrationError(`row counts differ after the copy (was the source in use?): ${detail}`)
  }
}
