// `overseer import-mmonit`: reads an M/Monit database (schema 15 or 26) and writes its hosts, groups,
// services, users, events and statistics history into Overseer's store, step by step (step.ts), one
// transaction per batch. Every step is keyed so that a second run converges instead of duplicating:
// after a crash, or during a cut-over to pick up what M/Monit recorded since. Counts are verified at the
// end: every row read is in the target, or listed in the report with the reason it was left out.
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { SecretBox } from '../../auth/secret-box'
import { MMonitImportRepository } from '../../store/mmonit-import'
import { isPostgresUrl } from '../../store/postgres/database'
import { loadPostgresSupport } from '../../store/postgres/sync-connection'
import { Store } from '../../store/store'
import type { CopyProgress } from '../migrate-database'
import { alertRulesStep } from './alert-rules'
import { eventsStep } from './events'
import { historyStep } from './history'
import { hostGroupsStep } from './host-groups'
import { hostsStep } from './hosts'
import { namesStep } from './names'
import { numberOf } from './pages'
import { serviceGroupsStep } from './service-groups'
import { servicesStep } from './services'
import { sqlitePath, type MMonitSource } from '../../store/mmonit-source/source'
import { openSource } from './open-source'
import { statisticsStep } from './statistics'
import { emptyIdMaps, SCHEMA_VERSIONS, type ImportOptions, type ImportStep, type SchemaVersion, type Skipped } from './step'
import { usersStep } from './users'

/** In order: a step finds the ids of the ones before it (names first: every other table points into it). */
export const IMPORT_STEPS: readonly ImportStep[] = [
  namesStep,
  usersStep,
  hostsStep,
  hostGroupsStep,
  servicesStep,
  serviceGroupsStep,
  alertRulesStep,
  eventsStep,
  statisticsStep,
  historyStep
]
/** Left out by --no-history. */
export const HISTORY_STEPS: readonly ImportStep[] = [statisticsStep, historyStep]

export const DEFAULT_BATCH_ROWS = 2000
/**
 * SQLite's page cache for the import's connection: the event table's nine indexes outgrow the server's
 * 16 MiB within a few hundred thousand events, and each insert then reads index pages back.
 */
const IMPORT_PAGE_CACHE_MIB = 256

export interface ImportRequest {
  /** sqlite:PATH, mysql://…, postgresql://… or an M/Monit URL (open-source.ts). */
  from: string
  /** A SQLite file's path or a postgres:// URL, as Store takes them. */
  to: string
  /** The data folder's secret.key: agent passwords are sealed with it. */
  keyFile: string
  since?: number
  history: boolean
  dryRun: boolean
  merge: boolean
  batchRows?: number
  progress?: CopyProgress
  log?: (line: string) => void
}

export interface StepReport {
  name: string
  /** Source rows counted before the step. */
  expected: number
  imported: number
  skipped: Skipped[]
  warnings: string[]
}

export interface ImportReport {
  schemaVersion: SchemaVersion
  dryRun: boolean
  steps: StepReport[]
  seconds: number
  /** What the source cannot give at all (the API: statistics history, rules …). */
  limits: readonly string[]
}

/** What the user can fix: an unknown schema, a target holding data, counts that do not add up. */
export class ImportError extends Error {}

/** The target holds data of its own and --merge was not given (the console offers to merge). */
export class TargetNotEmptyError extends ImportError {}

export async function importMMonit(request: ImportRequest): Promise<ImportReport> {
  const started = performance.now()
  const options: ImportOptions = { since: request.since, history: request.history, batchRows: request.batchRows ?? DEFAULT_BATCH_ROWS }
  const steps = IMPORT_STEPS.filter((step) => options.history || !HISTORY_STEPS.includes(step))
  const source = await openSource(request.from)
  try {
    const schemaVersion = await readSchemaVersion(source)
    const expected = new Map<ImportStep, number>()
    for (const step of steps) expected.set(step, await step.count(source, options))
    const seconds = () => (performance.now() - started) / 1000
    if (request.dryRun) {
      const counted = steps.map((step) => ({ name: step.name, expected: expected.get(step)!, imported: 0, skipped: [], warnings: [] }))
      return { schemaVersion, dryRun: true, steps: counted, seconds: seconds(), limits: source.limits ?? [] }
    }
    const reports = await importInto(request, source, schemaVersion, options, steps, expected)
    return { schemaVersion, dryRun: false, steps: reports, seconds: seconds(), limits: source.limits ?? [] }
  } finally {
    await source.close()
  }
}

async function importInto(
  request: ImportRequest,
  source: MMonitSource,
  schemaVersion: SchemaVersion,
  options: ImportOptions,
  steps: readonly ImportStep[],
  expected: Map<ImportStep, number>
): Promise<StepReport[]> {
  if (isPostgresUrl(request.to)) await loadPostgresSupport()
  const target = new Store(request.to, request.log, { pageCacheMib: IMPORT_PAGE_CACHE_MIB })
  try {
    const secrets = openSecrets(request.keyFile, target)
    claimTarget(new MMonitImportRepository(target.db, target.sql), sourceName(request.from), request.merge)
    const ctx = {
      source,
      target,
      schemaVersion,
      options,
      ids: emptyIdMaps(),
      secrets,
      progress: (rows: number) => request.progress?.rows(rows)
    }
    const reports: StepReport[] = []
    for (const step of steps) {
      request.progress?.table(step.name, expected.get(step)!)
      const result = await step.run(ctx)
      request.progress?.tableDone()
      reports.push({
        name: step.name,
        expected: expected.get(step)!,
        imported: result.imported,
        skipped: result.skipped,
        warnings: result.warnings ?? []
      })
    }
    assertAccounted(reports)
    return reports
  } finally {
    target.close()
  }
}

/** The server's own check (server.ts): secrets sealed with another key than the database's would never open. */
function openSecrets(keyFile: string, target: Store): SecretBox {
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 })
  const secrets = SecretBox.fromKeyFile(keyFile)
  const fingerprint = secrets.fingerprint()
  if (target.serverSettings.keyFingerprint(fingerprint) !== fingerprint) {
    throw new ImportError(
      `${keyFile} is not the key this database's secrets are sealed with: pass the --data-dir of the server that uses it`
    )
  }
  return secrets
}

/**
 * A target holding data is refused unless --merge asks to add to it, or the data came from an earlier
 * import of the same source (a re-run after a crash, or to pick up what is new).
 */
function claimTarget(repo: MMonitImportRepository, name: string, merge: boolean): void {
  const held = repo.contents()
  const empty = Object.values(held).every((n) => n === 0)
  if (!empty && !merge && repo.importedFrom() !== name) {
    const what = Object.entries({ hosts: held.hosts, users: held.users, 'host groups': held.hostGroups, events: held.events })
      .filter(([, n]) => n > 0)
      .map(([label, n]) => `${n.toLocaleString('en')} ${label}`)
      .join(', ')
    throw new TargetNotEmptyError(`the target already holds data (${what}): pass --merge to import into it, keeping what is there`)
  }
  repo.setImportedFrom(name)
}

/** The source as the target remembers it: a SQLite file by its absolute path, a server without the password. */
export function sourceName(url: string): string {
  if (url.startsWith('sqlite:')) return `sqlite:${resolve(sqlitePath(url))}`
  return url.replace(/\/\/[^/@]*@/, '//')
}

async function readSchemaVersion(source: MMonitSource): Promise<SchemaVersion> {
  if (!(await source.tables()).has('mmonit')) throw new ImportError('this is no M/Monit database: it has no mmonit table')
  const [row] = await source.page({ table: 'mmonit', columns: ['schemaversion'], key: ['schemaversion'], limit: 1 })
  const version = numberOf(row?.schemaversion ?? null, -1)
  const known = SCHEMA_VERSIONS.find((v) => v === version)
  if (known === undefined) {
    throw new ImportError(
      `M/Monit schema version ${row ? String(row.schemaversion) : 'missing'} is not supported: this import reads versions ${SCHEMA_VERSIONS.join(' and ')} (M/Monit 3.7 and 4.x)`
    )
  }
  return known
}

/** Every row counted before a step is imported or skipped with a reason (more is fine: M/Monit kept writing). */
function assertAccounted(reports: readonly StepReport[]): void {
  const short = reports
    .map((r) => ({ ...r, accounted: r.imported + r.skipped.reduce((sum, s) => sum + (s.rows ?? 1), 0) }))
    .filter((r) => r.accounted < r.expected)
  if (short.length > 0) {
    const detail = short.map((r) => `${r.name}: ${r.expected} in M/Monit, ${r.accounted} imported or skipped`).join('; ')
    throw new ImportError(`counts differ after the import (run it again: it picks up where it stopped): ${detail}`)
  }
}
