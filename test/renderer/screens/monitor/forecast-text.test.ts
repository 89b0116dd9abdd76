// How a resource forecast reads in the console: "full in …" as ages read, "full now" once the time has
// come, and why there is no time when fullat is null.
import { describe, expect, it } from 'vitest'
import type { ResourceForecast } from '../../../../src/renderer/api/forecasts'
import {
  bySoonest,
  forecastDetails,
  forecastVerdict,
  fullIn,
  resourceLabel,
  trendWindow,
  urgencyColor
} from '../../../../src/renderer/screens/monitor/forecast-text'

const NOW = 1_795_300_000
const MIN = 60
const HOUR = 3600
const DAY = 86_400

const forecast = (fields: Partial<ResourceForecast>): ResourceForecast => ({
  hostid: 1,
  host: 'db-1',
  serviceid: 7,
  service: 'rootfs',
  resource: 'space',
  percent: 82.5,
  slope: 4.2,
  confidence: 0.87,
  window: 7 * DAY,
  fullat: NOW + 2 * DAY + 5 * HOUR,
  computedat: NOW - 10 * MIN,
  ...fields
})

describe('fullIn', () => {
  it.each([
    [40 * MIN, 'full in 40 min'],
    [3 * HOUR + 10 * MIN, 'full in 3 h 10 min'],
    [5 * HOUR, 'full in 5 h'],
    [2 * DAY + 5 * HOUR + 59 * MIN, 'full in 2 d 5 h'],
    [30 * DAY, 'full in 30 d']
  ])('reads %s seconds ahead as "%s"', (ahead, text) => {
    expect(fullIn(NOW + ahead, NOW)).toBe(text)
  })

  it('says "full now" when the time has come or passed (a forecast stored a while ago)', () => {
    expect(fullIn(NOW, NOW)).toBe('full now')
    expect(fullIn(NOW - 3 * HOUR, NOW)).toBe('full now')
  })
})

describe('forecastVerdict', () => {
  it('gives the time when there is one', () => {
    expect(forecastVerdict(forecast({}), NOW)).toBe('full in 2 d 5 h')
  })

  it('says "no clear trend" for a null fullat the server found too noisy', () => {
    expect(forecastVerdict(forecast({ fullat: null, confidence: 0.2, slope: 3 }), NOW)).toBe('no clear trend')
    expect(forecastVerdict(forecast({ fullat: null, confidence: 0.49, slope: -2 }), NOW)).toBe('no clear trend')
  })

  it('says "not filling up" for a clear falling trend, and for a flat one (whose confidence the server leaves at 0)', () => {
    expect(forecastVerdict(forecast({ fullat: null, slope: -1.5 }), NOW)).toBe('not filling up')
    expect(forecastVerdict(forecast({ fullat: null, slope: 0, confidence: 0 }), NOW)).toBe('not filling up')
  })

  it('says "not full within a year" for a clear rise too slow to matter', () => {
    expect(forecastVerdict(forecast({ fullat: null, slope: 0.01 }), NOW)).toBe('not full within a year')
  })
})

describe('forecastDetails', () => {
  it('tells the level now, the trend window and, for a clear trend, its confidence', () => {
    expect(forecastDetails(forecast({}))).toEqual([`${(82.5).toLocaleString()} % now`, '7-day trend', 'confidence 87 %'])
    expect(forecastDetails(forecast({ percent: 40, window: DAY, confidence: 0.3, fullat: null }))).toEqual(['40 % now', '24-hour trend'])
  })
})

describe('trendWindow', () => {
  it('names the two windows the server fits', () => {
    expect(trendWindow(DAY)).toBe('24-hour trend')
    expect(trendWindow(7 * DAY)).toBe('7-day trend')
  })
})

describe('resourceLabel', () => {
  it("names a filesystem's resources with the filesystem, memory and swap alone", () => {
    expect(resourceLabel(forecast({ resource: 'inodes' }))).toBe('rootfs inodes')
    expect(resourceLabel(forecast({ service: 'db-1', resource: 'memory' }))).toBe('memory')
  })
})

describe('urgencyColor', () => {
  it('is red within a day, orange within a week, nothing beyond or without a time', () => {
    expect(urgencyColor(NOW + 20 * HOUR, NOW)).toBe('red')
    expect(urgencyColor(NOW + 3 * DAY, NOW)).toBe('orange')
    expect(urgencyColor(NOW + 30 * DAY, NOW)).toBeUndefined()
    expect(urgencyColor(null, NOW)).toBeUndefined()
  })
})

describe('bySoonest', () => {
  it('puts the soonest first and those without a time last, in their order', () => {
    const list = [
      forecast({ service: 'a', fullat: null }),
      forecast({ service: 'b', fullat: NOW + 5 * DAY }),
      forecast({ service: 'c', fullat: null }),
      forecast({ service: 'd', fullat: NOW + DAY })
    ]
    expect(list.sort(bySoonest).map((f) => f.service)).toEqual(['d', 'b', 'a', 'c'])
  })
})
