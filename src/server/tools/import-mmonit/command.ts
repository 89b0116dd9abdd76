// `overseer import-mmonit --from URL [--to DATABASE] [--data-dir DIR] [--since DATE] [--no-history]
// [--dry-run] [--merge] [--batch-rows N]`: the command line of import-database.ts. Progress on stderr,
// the report on stdout. Exit status 0 imported (or counted), 1 refused or failed, 2 bad arguments.
import { join } from 'node:path'
import { defaultDataDir, settings } from '../../config'
import { DATABASE_FILE } from '../../server'
import { isPostgresUrl } from '../../store/postgres/database'
import { progressLine } from '../progress-line'
import { DEFAULT_BATCH_ROWS, ImportError, importMMonit, sourceName, type ImportRequest } from './import-database'
import { formatReport } from './report'
import { SourceError } from '../../store/mmonit-source/source'

const USAGE = `usage: overseer import-mmonit --from URL | --from-api URL [--to DATABASE] [--data-dir DIR] [--since DATE] [--no-history] [--dry-run] [--merge] [--batch-rows N]
  --from        M/Monit's database: sqlite:PATH (its db/mmonit.db), mysql://user:password@host:port/db or postgresql://…
  --from-api    M/Monit's HTTP API instead, as an administrator: https://user:password@host:port (hosts, groups,
                users, events; no statistics history, no alert rules)
  --to          Overseer's database: sqlite:PATH or postgres://user:password@host:port/db
                (default: the server's, from ${settings.database} or the data folder)
  --data-dir    the server's data folder, whose secret.key seals agent passwords (default: ${settings['data-dir']} or ${defaultDataDir()})
  --since       import events and statistics samples from this date on (YYYY-MM-DD or an ISO 8601 time, UTC)
  --no-history  leave the statistics history behind
  --dry-run     read M/Monit and report what would be imported, writing nothing
  --merge       import into a database that already holds data, keeping it (hosts matched by Monit id)
  --batch-rows  rows read and written per transaction (default ${DEFAULT_BATCH_ROWS})`

export class UsageError extends Error {}

export type ImportArgs = Omit<ImportRequest, 'progress' | 'log'>

export function parseImportArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ImportArgs {
  let from: string | undefined
  let fromApi: string | undefined
  let to: string | undefined
  let dataDir: string | undefined
  let since: number | undefined
  let batchRows: number | undefined
  const flags = { history: true, dryRun: false, merge: false }
  const value = (flag: string, v: string | undefined) => {
    if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`)
    return v
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--from') from = value(arg, args[++i])
    else if (arg === '--from-api') fromApi = value(arg, args[++i])
    else if (arg === '--to') to = target(value(arg, args[++i]))
    else if (arg === '--data-dir') dataDir = value(arg, args[++i])
    else if (arg === '--since') since = date(value(arg, args[++i]))
    else if (arg === '--no-history') flags.history = false
    else if (arg === '--dry-run') flags.dryRun = true
    else if (arg === '--merge') flags.merge = true
    else if (arg === '--batch-rows') {
      batchRows = Number(args[++i])
      if (!Number.isInteger(batchRows) || batchRows < 1 || batchRows > 100_000) {
        throw new UsageError(`--batch-rows ${args[i]}: expected a whole number from 1 to 100000`)
      }
    } else throw new UsageError(`unknown argument ${arg}`)
  }
  if (from !== undefined && fromApi !== undefined) throw new UsageError('--from and --from-api: one source at a time')
  if (fromApi !== undefined) {
    if (!/^https?:\/\//i.test(fromApi)) throw new UsageError(`--from-api ${sourceName(fromApi)}: expected https://user:password@host:port`)
    // The API has no statistics history to give.
    from = fromApi
    flags.history = false
  }
  if (from === undefined) throw new UsageError('--from is missing')
  if (fromApi === undefined && !/^(sqlite:|mysql:\/\/|postgres(ql)?:\/\/)/i.test(from))
    throw new UsageError(`--from ${from}: expected sqlite:PATH, mysql://… or postgresql://…`)
  dataDir ??= env[settings['data-dir']] || defaultDataDir()
  const configured = env[settings.database]
  to ??= configured && isPostgresUrl(configured) ? configured : join(dataDir, DATABASE_FILE)
  return { from, to, keyFile: join(dataDir, 'secret.key'), since, batchRows, ...flags }
}

function target(value: string): string {
  if (isPostgresUrl(value)) return value
  if (value.startsWith('sqlite:') && value.length > 'sqlite:'.length) return value.slice('sqlite:'.length)
  throw new UsageError(`--to ${value}: expected sqlite:PATH or postgres://…`)
}

/** Unix seconds of a YYYY-MM-DD date (UTC midnight) or an ISO 8601 time. */
function date(value: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(ms))
    throw new UsageError(`--since ${value}: expected YYYY-MM-DD or an ISO 8601 time`)
  return Math.floor(ms / 1000)
}

export async function runImportCommand(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr
): Promise<number> {
  let request
  try {
    request = parseImportArgs(args)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    err.write(`overseer import-mmonit: ${e.message}\n${USAGE}\n`)
    return 2
  }
  try {
    const report = await importMMonit({ ...request, progress: progressLine(err), log: (line) => err.write(`${line}\n`) })
    out.write(formatReport(report))
    return 0
  } catch (e) {
    const known = e instanceof ImportError || e instanceof SourceError
    err.write(`overseer import-mmonit: ${known ? '' : 'failed: '}${(e as Error).message}\n`)
    return 1
  }
}
