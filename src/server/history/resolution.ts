// Which level and bucket width a chart of a span reads: the finest resolution that keeps each series
// within about MAX_POINTS points, from a level that still holds the whole span.
import type { Retention } from '../../shared/retention'
import { bucketSeconds, type Level } from '../domain/history-levels'

export const MAX_POINTS = 1000
const RETENTION_SLACK = 1.01

/** Bucket widths a chart may use (seconds): each nests in the next levels' buckets. */
const NICE_WIDTHS = [
  1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800, 1_209_600, 2_592_000
]
const LEVELS: readonly Level[] = ['raw', 'minute', 'hour', 'day']

/** Raw samples come at the poll interval, so raw rows count as 1-second buckets here. */
const levelWidth = (level: Level): number => (level === 'raw' ? 1 : bucketSeconds[level])

export interface Resolution {
  level: Level
  /** Bucket width of the answer, in seconds */
  width: number
}

export function chooseResolution(from: number, to: number, now: number, retention: Retention): Resolution {
  const target = (to - from) / MAX_POINTS
  const wanted = NICE_WIDTHS.find((w) => w >= target) ?? NICE_WIDTHS[NICE_WIDTHS.length - 1]
  // 1 % of slack, so that "the last year" (366 days in a leap year, up to a minute more than a year
  // before now) still reads from a level kept for 365 days; at worst its first hours are gone.
  const covering = LEVELS.filter((level) => now - retention[level] * RETENTION_SLACK <= from)
  if (covering.length === 0) return { level: 'day', width: Math.max(wanted, bucketSeconds.day) }
  const fitting = covering.filter((level) => levelWidth(level) <= wanted)
  const level = fitting.length > 0 ? fitting[fitting.length - 1] : covering[0]
  return { level, width: Math.max(wanted, levelWidth(level)) }
}
