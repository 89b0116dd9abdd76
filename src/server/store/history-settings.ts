// History settings and the rollup job's progress, in the `setting` table. Retention: how long each
// level is kept, in seconds, with the documented defaults; the settings screen (api/settings.ts) edits
// them through `setRetention`, which refuses values the rollup cannot honour.
import { RETENTION_LEVELS, retentionProblems, type Retention } from '../../shared/retention'
import { DAY, type Level, type RolledLevel } from '../domain/history-levels'
import { SettingTable } from './setting-table'
import type { QueryBuilder, SqlRunner } from './sql'

export const DEFAULT_RETENTION: Retention = { raw: DAY, minute: 14 * DAY, hour: 365 * DAY, day: 5 * 365 * DAY }

/** Where the rollup job stands; every field survives restarts. */
export interface RollupProgress {
  /** Each level holds every complete block before this time (the next block to roll starts here); null before the first. */
  rolledUntil: Record<RolledLevel, number | null>
  /** Raw rows up to this id were seen by the late-sample scan (or were read by the hour roll). */
  lateScanId: number
}

const retentionKey = (level: Level) => `history.retention.${level}`
const rolledKey = (level: RolledLevel) => `history.rolled.${level}`
const LATE_SCAN_KEY = 'history.latescan'

export class HistorySettingsRepository {
  private readonly table: SettingTable

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.table = new SettingTable(db, sql)
  }

  retention(): Retention {
    const r = { ...DEFAULT_RETENTION }
    for (const level of RETENTION_LEVELS) {
      const stored = this.number(retentionKey(level))
      if (stored !== undefined) r[level] = stored
    }
    return r
  }

  /** Sets some levels' retention; throws RetentionError, storing nothing, when the result is invalid. */
  setRetention(changes: Partial<Retention>): Retention {
    const next = { ...this.retention(), ...changes }
    const problem = retentionProblem(next)
    if (problem) throw new RetentionError(problem)
    for (const level of RETENTION_LEVELS) this.table.set(retentionKey(level), next[level])
    return next
  }

  progress(): RollupProgress {
    return {
      rolledUntil: {
        minute: this.number(rolledKey('minute')) ?? null,
        hour: this.number(rolledKey('hour')) ?? null,
        day: this.number(rolledKey('day')) ?? null
      },
      lateScanId: this.number(LATE_SCAN_KEY) ?? 0
    }
  }

  setRolledUntil(level: RolledLevel, time: number): void {
    this.table.set(rolledKey(level), time)
  }

  setLateScanId(id: number): void {
    this.table.set(LATE_SCAN_KEY, id)
  }

  private number(key: string): number | undefined {
    const value = this.table.get(key)
    return value === undefined ? undefined : Number(value)
  }
}

export class RetentionError extends Error {}

/** The first of the retention's problems (shared/retention.ts), finest level first. */
export function retentionProblem(r: Retention): string | undefined {
  return Object.values(retentionProblems(r))[0]
}
