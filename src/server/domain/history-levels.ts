// The history levels and their blocks. Times are unix seconds; days and months are UTC.
//
//   level    bucket            block (one row per statistic)   rolled up from, when complete
//   raw      one poll          one row per host and poll        —
//   minute   60 s              1 hour  (60 buckets, ~300 B)     raw, once the hour is over
//   hour     3600 s            1 day   (24 buckets)             minute, once the day is over
//   day      86400 s           1 month (28–31 buckets)          hour, once the month is over
//
// Why these blocks: a row per sample or per bucket cannot fit (100 hosts × 100 series at 30 s are
// 201 M minute buckets in 14 days), so buckets are packed per block and statistic. A block is written
// once, when its period is over, so rows are appended in key order (start, statistic) and SQLite packs
// its pages full; a 1-hour block of minutes is small enough that a late sample rewrites little, and a
// one-year chart reads 365 day rows of hour buckets per series (or 12 month rows of day buckets).
// Until a period is rolled, readers take it from the next finer level (series-reader.ts).

export type RolledLevel = 'minute' | 'hour' | 'day'
export type Level = 'raw' | RolledLevel

export const ROLLED_LEVELS: readonly RolledLevel[] = ['minute', 'hour', 'day']

export const MINUTE = 60
export const HOUR = 3600
export const DAY = 86400

export const bucketSeconds: Record<RolledLevel, number> = { minute: MINUTE, hour: HOUR, day: DAY }

/** The level each one is rolled up from. */
export const finerLevel: Record<RolledLevel, Level> = { minute: 'raw', hour: 'minute', day: 'hour' }

/** Start of the block holding time t. */
export function blockStart(level: RolledLevel, t: number): number {
  if (level === 'minute') return t - mod(t, HOUR)
  if (level === 'hour') return t - mod(t, DAY)
  const d = new Date(t * 1000)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000
}

/** Start of the block after the one starting at `start`. */
export function nextBlockStart(level: RolledLevel, start: number): number {
  if (level === 'minute') return start + HOUR
  if (level === 'hour') return start + DAY
  const d = new Date(start * 1000)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000
}

/** Slot of a bucket within its block (see block-codec.ts). */
export function slotOf(level: RolledLevel, start: number, time: number): number {
  return Math.floor((time - start) / bucketSeconds[level])
}

export function timeOfSlot(level: RolledLevel, start: number, slot: number): number {
  return start + slot * bucketSeconds[level]
}

/** Every block start of the level whose block overlaps [from, to). */
export function blockStartsOverlapping(level: RolledLevel, from: number, to: number): number[] {
  const starts: number[] = []
  for (let s = blockStart(level, from); s < to; s = nextBlockStart(level, s)) starts.push(s)
  return starts
}

/** Modulo that stays non-negative for times before 1970. */
export function mod(n: number, m: number): number {
  return ((n % m) + m) % m
}
