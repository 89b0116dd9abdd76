// When a resource (a filesystem's space or inodes, memory, swap) reaches 100 % at its current trend
// (issue 30 §3): a robust straight-line fit over a window of history, and a confidence that says when
// the trend is too noisy to tell. Pure: points in, a forecast or nothing out.
//
// The fit is a Theil–Sen estimator on pairs half the window apart: the slope is the median of the
// slopes between each point and the one n/2 points later (n/2 pairs, so a fleet's series stay cheap),
// which a minority of outliers (a log rotation, a burst) cannot move far. The level now is the median
// of the points carried to now along that slope.

/** A bucket's average: unix seconds, percent. */
export interface TrendPoint {
  time: number
  value: number
}

export interface Trend {
  /** Percent per second (negative: falling). */
  slope: number
  /** The fitted level now, in percent. */
  level: number
  /**
   * 0–1: how much the points agree on the direction (the share of pair slopes of the median's sign) times how
   * far the trend rises over the points' span against their scatter around the line.
   */
  confidence: number
}

/** At least this many points to fit, spread over at least half the window. */
export const MIN_POINTS = 12
/** Below this confidence the trend is too noisy to tell: no forecast. */
export const MIN_CONFIDENCE = 0.5
/** The trend's rise over the span must be this many times the points' scatter for full confidence. */
const SIGNAL_FOR_FULL_CONFIDENCE = 4
/** Further out than this, "full in" says nothing useful. */
export const HORIZON_SEC = 365 * 86_400
/** The MAD of a normal distribution's sample, scaled to its standard deviation. */
const MAD_TO_SD = 1.4826

/** The trend of `points` (any order) seen at `now`, or undefined when they are too few or too short a span for `windowSec`. */
export function fitTrend(points: readonly TrendPoint[], now: number, windowSec: number): Trend | undefined {
  const sorted = points.filter((p) => Number.isFinite(p.value)).sort((a, b) => a.time - b.time)
  const n = sorted.length
  if (n < MIN_POINTS) return undefined
  const span = sorted[n - 1].time - sorted[0].time
  if (span < windowSec / 2) return undefined
  const half = Math.floor(n / 2)
  const slopes: number[] = []
  for (let i = 0; i + half < n; i++) {
    const a = sorted[i]
    const b = sorted[i + half]
    if (b.time > a.time) slopes.push((b.value - a.value) / (b.time - a.time))
  }
  if (slopes.length === 0) return undefined
  const slope = median(slopes)
  const level = median(sorted.map((p) => p.value + slope * (now - p.time)))
  const scatter = MAD_TO_SD * median(sorted.map((p) => Math.abs(p.value - (level - slope * (now - p.time)))))
  const sign = Math.sign(slope)
  const agreeing = sign === 0 ? 0 : slopes.filter((s) => Math.sign(s) === sign).length / slopes.length
  const agreement = Math.max(0, 2 * agreeing - 1)
  const rise = Math.abs(slope) * span
  const signal = scatter === 0 ? (rise > 0 ? 1 : 0) : Math.min(1, rise / (SIGNAL_FOR_FULL_CONFIDENCE * scatter))
  return { slope, level, confidence: agreement * signal }
}

/**
 * When the trend reaches 100 % (unix seconds): now when it is there already, undefined when it does not
 * rise, is too noisy to tell, or gets there only past HORIZON_SEC.
 */
export function fullAt(trend: Trend, now: number): number | undefined {
  if (trend.confidence < MIN_CONFIDENCE || trend.slope <= 0) return undefined
  if (trend.level >= 100) return now
  const seconds = (100 - trend.level) / trend.slope
  return seconds > HORIZON_SEC ? undefined : now + Math.round(seconds)
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** A forecast moving away counts once it is this much further out than the horizon (no flapping at its edge). */
const RECOVERY_MARGIN = 1.25

/**
 * Whether a service's Forecast event state moves: 'failed' when its soonest forecast (`fullAt`, unix
 * seconds, undefined: none) falls within `horizonSec` and it was not failing; 'succeeded' when it was and
 * the forecast moved away (none, or past the horizon with a margin); undefined otherwise.
 */
export function forecastTransition(
  failing: boolean,
  fullAt: number | undefined,
  now: number,
  horizonSec: number
): 'failed' | 'succeeded' | undefined {
  if (!failing) return fullAt !== undefined && fullAt - now <= horizonSec ? 'failed' : undefined
  return fullAt === undefined || fullAt - now > horizonSec * RECOVERY_MARGIN ? 'succeeded' : undefined
}
