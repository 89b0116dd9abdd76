// History settings and the rollup job's progress, in the `setting` table. Retention: how long each
// level is kept, in seconds, with the documented defaults; the settings screen (api/settings.ts) edits
// them through `setRetention`, which refuses values the rollup cannot honour.
import { DAY, HOUR, type Level, type RolledLevel } from '../domain/history-levels'
import { SettingTable } from './setting-table'
import type { QueryBuilder, SqlRunner } from './sql'

export type Retention = Record<Level, number>

export const DEFAULT_RETENTION: Retention = { raw: DAY, minute: 14 * DAY, hour: 365 * DAY, day: 5 * 365 * DAY }

/**
 * Each level must outlive the period its next level rolls up at once (an hour of raw samples, a day of
 * minutes, a month of hours), with room for a late job; and a coarser level never keeps less than a
 * finer one.
 */
export const MIN_RETENTION: Retention = { raw: 2 * HOUR, minute: 2 * DAY, hour: 62 * DAY, day: 62 * DAY }
const MAX_RETENTION = 100 * 365 * DAY
const LEVELS: readonly Level[] = ['raw', 'minute', 'hour', 'day']

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
    for (const level of LEVELS) {
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
    for (const level of LEVELS) this.table.set(retentionKey(level), next[level])
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

export function retentionProblem(r: Retention): string | undefined {
  let finer: Level | undefined
  for (const level of LEVELS) {
    const seconds = r[level]
    if (!Number.isSafeInteger(seconds)) return `${level} retention must be a whole number of seconds`
    if (seconds < MIN_RETENTION[level]) return `${level} retention must be at least ${MIN_RETENTION[level]} seconds`
    if (seconds > MAX_RETENTION) return `${level} retention must be at most ${MAX_RETENTION} seconds`
    if (finer !== undefined && seconds < r[finer]) return `${level} retention must not be shorter than ${finer} retention`
    finer = level
  }
  return undefined
}
