// Forecasts from history with known slopes and noise (issue 30 §3): within 10 % of the truth when the
// trend is clear, nothing when the series is flat, falling, or too noisy to tell, and outliers do not
// move the fit. The noise is seeded, so every run sees the same series.
import { describe, expect, it } from 'vitest'
import { fitTrend, forecastTransition, fullAt, HORIZON_SEC, type TrendPoint } from '../../../src/server/domain/forecast'

const HOUR = 3600
const DAY = 86_400
const NOW = 1_800_000_000

/** A seeded uniform generator (mulberry32): the same noise every run. */
function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Normal noise of standard deviation `sd` (Box–Muller). */
function gaussian(random: () => number, sd: number): number {
  return sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** `windowSec` of points every `stepSec` up to NOW: `levelNow` % now, rising `perDay` % a day, with noise. */
function series(o: { windowSec: number; stepSec: number; levelNow: number; perDay: number; sd: number; seed: number }): TrendPoint[] {
  const random = seeded(o.seed)
  const points: TrendPoint[] = []
  for (let time = NOW - o.windowSec; time <= NOW; time += o.stepSec) {
    points.push({ time, value: o.levelNow - (o.perDay * (NOW - time)) / DAY + gaussian(random, o.sd) })
  }
  return points
}

const hoursToFull = (points: TrendPoint[], windowSec: number) => {
  const trend = fitTrend(points, NOW, windowSec)
  const at = trend && fullAt(trend, NOW)
  return at === undefined ? undefined : (at - NOW) / HOUR
}

describe('forecast: time until 100 %', () => {
  const cases = [
    // A disk filling 10 % a day from 70 %: full in 3 days, over a week of hourly points.
    { name: '7 days, 10 %/day, noise 1 %', windowSec: 7 * DAY, stepSec: HOUR, levelNow: 70, perDay: 10, sd: 1 },
    { name: '7 days, 2 %/day, noise 0.5 %', windowSec: 7 * DAY, stepSec: HOUR, levelNow: 80, perDay: 2, sd: 0.5 },
    { name: '24 hours, 20 %/day, noise 1 %', windowSec: DAY, stepSec: 600, levelNow: 60, perDay: 20, sd: 1 },
    { name: '24 hours, 5 %/day, noise 0.3 %', windowSec: DAY, stepSec: 600, levelNow: 90, perDay: 5, sd: 0.3 },
    { name: '7 days, 0.5 %/day, no noise', windowSec: 7 * DAY, stepSec: HOUR, levelNow: 50, perDay: 0.5, sd: 0 }
  ]
  for (const c of cases) {
    it(`within 10 % of the truth: ${c.name}`, () => {
      const truth = ((100 - c.levelNow) / c.perDay) * 24
      for (const seed of [1, 2, 3, 4, 5]) {
        const hours = hoursToFull(series({ ...c, seed }), c.windowSec)
        expect(hours, `seed ${seed}`).toBeDefined()
        expect(Math.abs(hours! - truth) / truth, `seed ${seed}: ${hours} h against ${truth} h`).toBeLessThan(0.1)
      }
    })
  }

  it('a flat series, a falling one, or noise far above the trend: no forecast', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const flat = series({ windowSec: 7 * DAY, stepSec: HOUR, levelNow: 60, perDay: 0, sd: 2, seed })
      const falling = series({ windowSec: 7 * DAY, stepSec: HOUR, levelNow: 60, perDay: -3, sd: 1, seed })
      const noisy = series({ windowSec: DAY, stepSec: 600, levelNow: 60, perDay: 1, sd: 10, seed })
      expect(hoursToFull(flat, 7 * DAY), `flat, seed ${seed}`).toBeUndefined()
      expect(hoursToFull(falling, 7 * DAY), `falling, seed ${seed}`).toBeUndefined()
      expect(hoursToFull(noisy, DAY), `noisy, seed ${seed}`).toBeUndefined()
    }
  })

  it('the confidence says how clear the trend is', () => {
    const clear = fitTrend(series({ windowSec: DAY, stepSec: 600, levelNow: 60, perDay: 20, sd: 0.5, seed: 1 }), NOW, DAY)!
    const noisy = fitTrend(series({ windowSec: DAY, stepSec: 600, levelNow: 60, perDay: 1, sd: 10, seed: 1 }), NOW, DAY)!
    expect(clear.confidence).toBeGreaterThan(0.9)
    expect(noisy.confidence).toBeLessThan(0.5)
  })

  it('outliers (a tenth of the points far off) do not move the forecast past 10 %', () => {
    const points = series({ windowSec: 7 * DAY, stepSec: HOUR, levelNow: 70, perDay: 10, sd: 0.5, seed: 7 })
    for (let i = 0; i < points.length; i += 10) points[i] = { ...points[i], value: i % 20 === 0 ? 0 : 100 }
    const hours = hoursToFull(points, 7 * DAY)!
    expect(Math.abs(hours - 72) / 72).toBeLessThan(0.1)
  })

  it('too few points or too short a span for the window: no trend; full already: now; past a year: none', () => {
    const short = series({ windowSec: 2 * DAY, stepSec: HOUR, levelNow: 70, perDay: 10, sd: 0, seed: 1 })
    expect(fitTrend(short, NOW, 7 * DAY)).toBeUndefined()
    expect(fitTrend(short.slice(-11), NOW, HOUR)).toBeUndefined()
    expect(fullAt({ slope: 1e-6, level: 100.5, confidence: 1 }, NOW)).toBe(NOW)
    expect(fullAt({ slope: 50 / HORIZON_SEC, level: 40, confidence: 1 }, NOW)).toBeUndefined()
    expect(fullAt({ slope: 60 / HORIZON_SEC, level: 50, confidence: 1 }, NOW)).toBeCloseTo(NOW + (50 / 60) * HORIZON_SEC, -1)
  })
})

describe('forecast: the Forecast event state', () => {
  const horizon = 72 * HOUR
  it('fails when the soonest forecast falls within the horizon, recovers only once it moved past it with a margin', () => {
    expect(forecastTransition(false, NOW + 71 * HOUR, NOW, horizon)).toBe('failed')
    expect(forecastTransition(false, NOW + 73 * HOUR, NOW, horizon)).toBeUndefined()
    expect(forecastTransition(false, undefined, NOW, horizon)).toBeUndefined()
    expect(forecastTransition(true, NOW + 71 * HOUR, NOW, horizon)).toBeUndefined()
    // Just past the horizon: no recovery yet (no flapping at its edge); well past it or gone: recovered.
    expect(forecastTransition(true, NOW + 80 * HOUR, NOW, horizon)).toBeUndefined()
    expect(forecastTransition(true, NOW + 91 * HOUR, NOW, horizon)).toBe('succeeded')
    expect(forecastTransition(true, undefined, NOW, horizon)).toBe('succeeded')
  })
})
