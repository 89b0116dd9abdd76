// One kind of M/Monit record moved into Overseer. The orchestrator (import-database.ts) runs the steps in
// order; each reads its tables from the source in keyset pages, writes one transaction per page through
// the store, and is keyed so that a second run (after a crash, or to pick up what is new) adds only what
// is missing. Later steps find the ids earlier ones made in `ctx.ids`.
import type { SecretBox } from '../../auth/secret-box'
import type { Store } from '../../store/store'
import type { MMonitSource } from '../../store/mmonit-source/source'

/** The M/Monit schema versions read (mmonit.schemaversion): 3.7.x and 4.x. */
export const SCHEMA_VERSIONS = [15, 26] as const
export type SchemaVersion = (typeof SCHEMA_VERSIONS)[number]

export interface ImportOptions {
  /** Unix seconds: events and samples collected before are left behind. */
  since?: number
  /** False with --no-history: no statistics samples nor roll-ups. */
  history: boolean
  /** Rows read and written per transaction. */
  batchRows: number
}

/** A record not imported, and why: the report lists them. */
export interface Skipped {
  what: string
  why: string
  /** Source rows this entry stands for (one line for many alike); 1 when absent. */
  rows?: number
}

export interface StepResult {
  imported: number
  skipped: Skipped[]
  /** Imported, but the administrator should know (default passwords …): the report lists them. */
  warnings?: string[]
}

/** M/Monit's ids and names mapped to Overseer's, filled by the step that imports them. */
export interface IdMaps {
  /** M/Monit `name.id` → the string (host, service, group names and control files). */
  names: Map<number, string>
  /** `host.id` → our host id. */
  hosts: Map<number, number>
  /** `hostgroup.id` → our host group id. */
  hostGroups: Map<number, number>
  /** `service.id` → our service id. */
  services: Map<number, number>
  /** `users.uname` → our user id. */
  users: Map<string, number>
  /** `statistics.id` (a series) → our statistic id. */
  statistics: Map<number, number>
}

export interface ImportContext {
  source: MMonitSource
  target: Store
  schemaVersion: SchemaVersion
  options: ImportOptions
  ids: IdMaps
  /** Seals agent call-back passwords as the server does (the data folder's secret.key). */
  secrets: SecretBox
  /** The step's source rows read so far, after each batch: drives the progress line. */
  progress(rows: number): void
}

export interface ImportStep {
  name: string
  /** The source rows the step reads: the progress line's total, and what --dry-run reports. */
  count(source: MMonitSource, options: ImportOptions): Promise<number>
  run(ctx: ImportContext): Promise<StepResult>
}

export function emptyIdMaps(): IdMaps {
  return { names: new Map(), hosts: new Map(), hostGroups: new Map(), services: new Map(), users: new Map(), statistics: new Map() }
}
