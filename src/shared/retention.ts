// How long each statistics history level is kept, in seconds, and which values the rollup can honour:
// checked by the server before storing (store/history-settings.ts) and by the console's settings form
// before sending, each level's problem under its own field.

export type RetentionLevel = 'raw' | 'minute' | 'hour' | 'day'
export type Retention = Record<RetentionLevel, number>

const HOUR = 3600
const DAY = 86_400
export const RETENTION_LEVELS: readonly RetentionLevel[] = ['raw', 'minute', 'hour', 'day']

/**
 * Each level must outlive the period its next level rolls up at once (an hour of raw samples, a day of
 * minutes, a month of hours), with room for a late job; and a coarser level never keeps less than a
 * finer one.
 */
export const MIN_RETENTION: Retention = { raw: 2 * HOUR, minute: 2 * DAY, hour: 62 * DAY, day: 62 * DAY }
const MAX_RETENTION = 100 * 365 * DAY

/** Every level's problem, finest level first; none when the retention can be stored. */
export function retentionProblems(r: Retention): Partial<Record<RetentionLevel, string>> {
  const problems: Partial<Record<RetentionLevel, string>> = {}
  let finer: RetentionLevel | undefined
  for (const level of RETENTION_LEVELS) {
    const seconds = r[level]
    const problem = !Number.isSafeInteger(seconds)
      ? `${level} retention must be a whole number of seconds`
      : seconds < MIN_RETENTION[level]
        ? `${level} retention must be at least ${MIN_RETENTION[level]} seconds`
        : seconds > MAX_RETENTION
          ? `${level} retention must be at most ${MAX_RETENTION} seconds`
          : finer !== undefined && seconds < r[finer]
            ? `${level} retention must not be shorter than ${finer} retention`
            : undefined
    if (problem) problems[level] = problem
    finer = level
  }
  return problems
}
