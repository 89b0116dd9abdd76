// `overseer migrate --from sqlite:PATH|postgres://… --to sqlite:PATH|postgres://… [--force] [--batch-rows N]`:
// the command line of migrate-database.ts. Exit status 0 copied, 1 refused or failed, 2 bad arguments.
import { existsSync } from 'node:fs'
import { isPostgresUrl } from '../store/postgres/database'
import { loadPostgresSupport } from '../store/postgres/sync-connection'
import { DEFAULT_BATCH_ROWS, migrateDatabase, type MigrateOptions } from './migrate-database'
import { progressLine } from './progress-line'

const USAGE = `usage: overseer migrate --from LOCATION --to LOCATION [--force] [--batch-rows N]
  LOCATION: sqlite:PATH (a SQLite file) or postgres://user:password@host:port/database
  --force       empty a target that already holds data (otherwise the copy refuses to start)
  --batch-rows  rows read and written per transaction (default ${DEFAULT_BATCH_ROWS})`

export class UsageError extends Error {}

/** A store location from `sqlite:PATH` or a PostgreSQL URL. */
function location(flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`)
  if (isPostgresUrl(value)) return value
  if (value.startsWith('sqlite:') && value.length > 'sqlite:'.length) return value.slice('sqlite:'.length)
  throw new UsageError(`${flag} ${value}: expected sqlite:PATH or postgres://…`)
}

export function parseMigrateArgs(args: readonly string[]): Omit<MigrateOptions, 'progress' | 'log'> {
  let from: string | undefined
  let to: string | undefined
  let force = false
  let batchRows: number | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--from') from = location(arg, args[++i])
    else if (arg === '--to') to = location(arg, args[++i])
    else if (arg === '--force') force = true
    else if (arg === '--batch-rows') {
      batchRows = Number(args[++i])
      if (!Number.isInteger(batchRows) || batchRows < 1) throw new UsageError(`--batch-rows ${args[i]}: expected a positive whole number`)
    } else throw new UsageError(`unknown argument ${arg}`)
  }
  if (from === undefined) throw new UsageError('--from is missing')
  if (to === undefined) throw new UsageError('--to is missing')
  if (from === to) throw new UsageError('--from and --to are the same database')
  if (!isPostgresUrl(from) && !existsSync(from)) throw new UsageError(`--from ${from}: no such file`)
  return { from, to, force, batchRows }
}

export async function runMigrateCommand(args: readonly string[], err: NodeJS.WriteStream = process.stderr): Promise<number> {
  let options
  try {
    options = parseMigrateArgs(args)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    err.write(`overseer migrate: ${e.message}\n${USAGE}\n`)
    return 2
  }
  try {
    if (isPostgresUrl(options.from) || isPostgresUrl(options.to)) await loadPostgresSupport()
    const report = migrateDatabase({ ...options, progress: progressLine(err), log: (line) => err.write(`${line}\n`) })
    const rate = Math.round(report.rows / Math.max(report.seconds, 0.001))
    err.write(
      `copied ${report.rows.toLocaleString('en')} rows in ${report.tables.length} tables in ${report.seconds.toFixed(1)} s (${rate.toLocaleString('en')} rows/s); counts verified\n`
    )
    return 0
  } catch (e) {
    err.write(`overseer migrate: ${(e as Error).message}\n`)
    return 1
  }
}
