import { describe, expect, it } from 'vitest'
import { Range } from '../../../src/shared/ranges'
import {
  averageOf,
  customRangeProblem,
  DAY,
  downtimeText,
  HOUR,
  MINUTE,
  resolveRange,
  servicesUpOf,
  unknownSpans,
  uptimeOf,
  type DownInterval
} from '../../../src/server/domain/uptime'

// A minute-aligned origin; M = one minute. Ranges below are [F, F + 100 minutes) unless said otherwise.
const F = 1_800_000_000
const M = MINUTE
const span = { from: F, to: F + 100 * M }
const later = F + 1000 * M
const down = (start: number, end: number | null): DownInterval => ({ start, end })

describe('servicesUpOf', () => {
  it('weighs every monitored service the same over the known time', () => {
    // Four services over 100 minutes: one down 50, one down 10 (and its overlap counted once), two up.
    const failures = [[down(F, F + 50 * M)], [down(F + 10 * M, F + 20 * M), down(F + 15 * M, F + 20 * M)]]
    expect(servicesUpOf(span, later, 4, failures)).toBe(85)
    // The unknown time (before the first report at 50 minutes) counts for no service.
    expect(servicesUpOf(span, later, 4, failures, [down(0, F + 50 * M)])).toBe(100)
    expect(servicesUpOf(span, later, 1, [[down(F - DAY, null)]])).toBe(0)
  })

  it('is null without a monitored service, and 100 when nothing of the range is known yet', () => {
    expect(servicesUpOf(span, later, 0, [])).toBeNull()
    expect(servicesUpOf(span, F, 3, [[down(F - HOUR, null)]])).toBe(100)
  })
})

describe('uptimeOf', () => {
  it.each<[string, DownInterval[], number, number]>([
    ['no intervals', [], 0, 100],
    ['one inside', [down(F + 10 * M, F + 20 * M)], 10 * M, 90],
    ['overlapping ones count once', [down(F + 10 * M, F + 30 * M), down(F + 20 * M, F + 40 * M)], 30 * M, 70],
    ['a nested one counts once', [down(F + 10 * M, F + 50 * M), down(F + 20 * M, F + 30 * M)], 40 * M, 60],
    ['touching ones join', [down(F + 10 * M, F + 20 * M), down(F + 20 * M, F + 25 * M)], 15 * M, 85],
    ['unsorted input', [down(F + 60 * M, F + 70 * M), down(F, F + 5 * M)], 15 * M, 85],
    ['one starting before the range is cut at from', [down(F - 50 * M, F + 5 * M)], 5 * M, 95],
    ['one ending after the range is cut at to', [down(F + 95 * M, F + 200 * M)], 5 * M, 95],
    ['one covering the range', [down(F - M, F + 101 * M)], 100 * M, 0],
    ['ending exactly at from', [down(F - 10 * M, F)], 0, 100],
    ['starting exactly at to', [down(F + 100 * M, F + 110 * M)], 0, 100],
    ['an empty interval', [down(F + 10 * M, F + 10 * M)], 0, 100],
    ['an open one runs to the range end when now is later', [down(F + 90 * M, null)], 10 * M, 90],
    ['a third of the range', [down(F, F + 33 * M)], 33 * M, 67],
    // 1 minute of 100 is 99 %; floors, so 1 minute out of 3 shows 66.66, never rounding up to 100.
    ['one minute', [down(F + 7 * M, F + 8 * M)], M, 99]
  ])('%s', (_, intervals, downtime, uptime) => {
    expect(uptimeOf(span, later, intervals)).toEqual({ downtime, uptime, unknown: 0 })
  })

  it('rounds outwards to whole minutes of the range grid: floor starts, ceil ends', () => {
    // 10:30 .. 12:10 touches minutes 10, 11 and 12.
    expect(uptimeOf(span, later, [down(F + 10 * M + 30, F + 12 * M + 10)]).downtime).toBe(3 * M)
    // A 5-second failure is a down minute.
    expect(uptimeOf(span, later, [down(F + 40 * M + 20, F + 40 * M + 25)]).downtime).toBe(M)
    // Two short failures in one minute: that minute once.
    expect(uptimeOf(span, later, [down(F + 40 * M + 1, F + 40 * M + 2), down(F + 40 * M + 50, F + 40 * M + 55)]).downtime).toBe(M)
    // Ending 1 second into the range still takes its first minute.
    expect(uptimeOf(span, later, [down(F - 5 * M, F + 1)]).downtime).toBe(M)
  })

  it('the grid starts at the range start, not at unix minutes', () => {
    const odd = { from: F + 30, to: F + 30 + 10 * M }
    expect(uptimeOf(odd, later, [down(F + 30 + 2 * M, F + 30 + 3 * M)])).toEqual({ downtime: M, uptime: 90, unknown: 0 })
    expect(uptimeOf(odd, later, [down(F + 2 * M, F + 3 * M)]).downtime).toBe(2 * M)
  })

  it('counts only the elapsed part when now is inside the range', () => {
    const now = F + 40 * M
    expect(uptimeOf(span, now, [])).toEqual({ downtime: 0, uptime: 100, unknown: 0 })
    // Open since minute 30: 10 of 40 elapsed minutes.
    expect(uptimeOf(span, now, [down(F + 30 * M, null)])).toEqual({ downtime: 10 * M, uptime: 75, unknown: 0 })
    // A closed interval reaching past now (clock skew) stops at now too.
    expect(uptimeOf(span, now, [down(F + 30 * M, F + 90 * M)])).toEqual({ downtime: 10 * M, uptime: 75, unknown: 0 })
  })

  it('takes now to its last whole minute', () => {
    // 40.5 minutes in: 40 elapsed; the open failure since 39:50 covers minute 39 only.
    const now = F + 40 * M + 30
    expect(uptimeOf(span, now, [down(F + 39 * M + 50, null)])).toEqual({ downtime: M, uptime: 97.5, unknown: 0 })
  })

  it('is 100 % when none of the range has elapsed', () => {
    expect(uptimeOf(span, F - HOUR, [down(F - 2 * HOUR, null)])).toEqual({ downtime: 0, uptime: 100, unknown: 0 })
    expect(uptimeOf(span, F + 30, [down(F, null)])).toEqual({ downtime: 0, uptime: 100, unknown: 0 })
  })

  it('floors the percent to 2 decimals', () => {
    expect(uptimeOf({ from: F, to: F + 3 * M }, later, [down(F, F + M)]).uptime).toBe(66.66)
    // One minute in a year is still below 100.
    expect(uptimeOf({ from: F, to: F + 365 * DAY }, F + 400 * DAY, [down(F, F + M)]).uptime).toBe(99.99)
  })
})

describe('uptimeOf with unknown spans (issue 12: the server not running, before the first report)', () => {
  it('takes unknown time out of the elapsed part: not up, not down', () => {
    // 20 of 100 minutes unknown, 8 of the other 80 down: floor(10000 × 72 / 80) / 100.
    expect(uptimeOf(span, later, [down(F + 50 * M, F + 58 * M)], [down(F + 10 * M, F + 30 * M)])).toEqual({
      downtime: 8 * M,
      uptime: 90,
      unknown: 20 * M
    })
  })

  it("does not count a down interval over the server's downtime", () => {
    // Silent from minute 10 to 40, while the server itself was down from 20 to 40: 10 minutes down of 80 known.
    expect(uptimeOf(span, later, [down(F + 10 * M, F + 40 * M)], [down(F + 20 * M, F + 40 * M)])).toEqual({
      downtime: 10 * M,
      uptime: 87.5,
      unknown: 20 * M
    })
    // Entirely inside the server's downtime: nothing down at all.
    expect(uptimeOf(span, later, [down(F + 25 * M, F + 35 * M)], [down(F + 20 * M, F + 40 * M)])).toEqual({
      downtime: 0,
      uptime: 100,
      unknown: 20 * M
    })
  })

  it('snaps unknown spans outwards, and unknown wins over down in a shared minute', () => {
    // The server down for 30 s within minute 10 to 11: both minutes unknown, the silence around them not down.
    expect(uptimeOf(span, later, [down(F + 10 * M + 40, F + 11 * M + 5)], [down(F + 10 * M + 45, F + 11 * M + 15)])).toEqual({
      downtime: 0,
      uptime: 100,
      unknown: 2 * M
    })
    // Overlapping unknown spans count once.
    expect(uptimeOf(span, later, [], [down(F, F + 10 * M), down(F + 5 * M, F + 15 * M)]).unknown).toBe(15 * M)
  })

  it('cuts unknown spans to the elapsed part of the range', () => {
    const now = F + 40 * M
    // An ongoing unknown span (end null) and one reaching past now: only minutes 30 to 40 are unknown.
    expect(uptimeOf(span, now, [], [down(F + 30 * M, null)])).toEqual({ downtime: 0, uptime: 100, unknown: 10 * M })
    expect(uptimeOf(span, now, [down(F, F + 10 * M)], [down(F + 30 * M, F + 90 * M)])).toEqual({
      downtime: 10 * M,
      uptime: 66.66,
      unknown: 10 * M
    })
  })

  it('is 100 % with all of the elapsed part unknown', () => {
    expect(uptimeOf(span, later, [down(F, null)], [down(F - M, F + 200 * M)])).toEqual({ downtime: 0, uptime: 100, unknown: 100 * M })
  })

  it('does not count the time before the host first reported', () => {
    // First seen 15 s into minute 52, silent from 5 s later on (the host: 88 % for the last hour
    // when those 52 minutes counted as up); 59 of the 60 minutes unknown or down.
    const hour = { from: F, to: F + 60 * M }
    const firstReport = F + 52 * M + 15
    expect(uptimeOf(hour, later, [down(firstReport + 5, null)], unknownSpans(firstReport, []))).toEqual({
      downtime: 7 * M,
      uptime: 0,
      unknown: 53 * M
    })
    // Healthy since its first report: 100 %, however late in the range that was.
    expect(uptimeOf(hour, later, [], unknownSpans(firstReport, []))).toEqual({ downtime: 0, uptime: 100, unknown: 53 * M })
    // First seen before the range: nothing unknown.
    expect(uptimeOf(hour, later, [], unknownSpans(F - DAY, [])).unknown).toBe(0)
  })

  it("joins the first report and the server's downtimes", () => {
    expect(unknownSpans(F + 5 * M, [down(F + 20 * M, F + 21 * M)])).toEqual([down(0, F + 5 * M), down(F + 20 * M, F + 21 * M)])
    expect(uptimeOf(span, later, [], unknownSpans(F + 5 * M, [down(F + 20 * M, F + 21 * M)])).unknown).toBe(6 * M)
  })
})

describe('ranges', () => {
  const now = new Date(2026, 4, 31, 15, 42, 17).getTime() / 1000 // May 31, local time
  const to = new Date(2026, 4, 31, 15, 42).getTime() / 1000
  const at = (...a: [number, number, number, number?, number?]) => new Date(a[0], a[1], a[2], a[3] ?? 0, a[4] ?? 0).getTime() / 1000

  it.each<[Range, number]>([
    [Range.Now, at(2026, 4, 31)],
    [Range.LastHour, to - HOUR],
    [Range.Last6Hours, to - 6 * HOUR],
    [Range.Last12Hours, to - 12 * HOUR],
    [Range.Last24Hours, to - DAY],
    [Range.Week, to - 7 * DAY],
    [Range.Month, at(2026, 3, 30, 15, 42)], // April has no 31st
    [Range.ThreeMonths, at(2026, 1, 28, 15, 42)],
    [Range.SixMonths, at(2025, 10, 30, 15, 42)],
    [Range.Year, at(2025, 4, 31, 15, 42)],
    [Range.TwoYears, at(2024, 4, 31, 15, 42)],
    [Range.ThreeYears, at(2023, 4, 31, 15, 42)]
  ])('range %i ends at now to the minute', (range, from) => {
    expect(resolveRange(range as Exclude<Range, 12>, now)).toEqual({ from, to })
  })

  it('a month back from March 31 in a leap year is February 29', () => {
    expect(resolveRange(Range.Month, at(2028, 2, 31, 8, 0)).from).toBe(at(2028, 1, 29, 8, 0))
  })

  it('checks custom ranges', () => {
    expect(customRangeProblem(F, F + 60)).toBeUndefined()
    expect(customRangeProblem(F + 7, F + 7 + 3600)).toBeUndefined() // only the length must be whole minutes
    expect(customRangeProblem(F, F)?.arg).toBe('dateto')
    expect(customRangeProblem(F, F - 60)?.arg).toBe('dateto')
    expect(customRangeProblem(F, F + 90)).toEqual({ arg: 'dateto', message: 'dateto - datefrom must be a whole number of minutes' })
    expect(customRangeProblem(-60, 0)?.arg).toBe('datefrom')
  })

  it('measures a custom range in the past whole, and one reaching into the future up to now', () => {
    const custom = { from: F, to: F + DAY }
    expect(uptimeOf(custom, F + 2 * DAY, [down(F + HOUR, F + 3 * HOUR)])).toEqual({ downtime: 2 * HOUR, uptime: 91.66, unknown: 0 })
    expect(uptimeOf(custom, F + 12 * HOUR, [down(F + HOUR, null)])).toEqual({ downtime: 11 * HOUR, uptime: 8.33, unknown: 0 })
  })
})

describe('downtime text', () => {
  it.each([
    [0, '0m'],
    [59, '0m'],
    [60, '1m'],
    [5 * M, '5m'],
    [HOUR, '1h'],
    [2 * HOUR + 5 * M, '2h 5m'],
    [3 * DAY + HOUR, '3d 1h'],
    [DAY + 7 * M, '1d 7m'],
    [400 * DAY + 23 * HOUR + 59 * M, '400d 23h 59m'],
    [-5, '0m']
  ])('%i s is %s', (seconds, text) => {
    expect(downtimeText(seconds)).toBe(text)
  })
})

describe('averageOf', () => {
  it('is 100 % and no downtime without items', () => {
    expect(averageOf([])).toEqual({ uptime: 100, downtime: 0 })
  })

  it('means the percents (floored) and the downtimes (to the minute)', () => {
    expect(
      averageOf([
        { uptime: 100, downtime: 0 },
        { uptime: 99.99, downtime: 3 * M }
      ])
    ).toEqual({ uptime: 99.99, downtime: 2 * M })
    expect(
      averageOf([
        { uptime: 33.33, downtime: 0 },
        { uptime: 33.34, downtime: 0 },
        { uptime: 33.33, downtime: 0 }
      ]).uptime
    ).toBe(33.33)
  })
})
