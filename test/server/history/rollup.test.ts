// The rollup on a real store (SQLite file or PostgreSQL database): minute, hour and day buckets across their boundaries, late and
// out-of-order samples after a roll, retention edges, a restart in the middle, and exactly-once.
import { afterEach, describe, expect, it } from 'vitest'
import { blockStart } from '../../../src/server/domain/history-levels'
import { ROLL_GRACE_SECONDS, Rollup } from '../../../src/server/history/rollup'
import { readSeries } from '../../../src/server/history/series-reader'
import { Store } from '../../../src/server/store/store'
import { DAY, expectedBucket, historySetup, HOUR, T0, type HistorySetup } from './history-setup'
import { tempStoreLocation } from '../../support/temp-store'

let setup: HistorySetup
afterEach(() => {
  setup.store.close()
  setup.temp.close()
})

const rollup = () => new Rollup(setup.store.history, setup.store.sql)
const MONTH_END = Date.UTC(2027, 1, 1) / 1000

describe('rollup across boundaries', () => {
  it('keeps count, min, max and sum exact at the minute, hour, day and month edges', () => {
    setup = historySetup()
    const [a, b] = setup.ids
    // Keep every level for the whole test month.
    setup.store.history.settings.setRetention({ raw: 40 * DAY, minute: 40 * DAY })
    // Around midnight of Dec 31 → Jan 1 and around the first minute and hour of Jan 1.
    const points: [number, number, number][] = [
      [T0 - 30, 1.5, 100],
      [T0 - 1, 2.5, 200],
      [T0, 0.1, 10],
      [T0 + 59, 0.2, 20],
      [T0 + 60, 0.3, 30],
      [T0 + HOUR - 1, -4, 40],
      [T0 + HOUR, 7.25, 50],
      [T0 + DAY - 1, 9.999, 60],
      [T0 + DAY, 1e6, 70],
      [MONTH_END - 1, 3, 80]
    ]
    for (const [t, va, vb] of points)
      setup.raw(t, [
        [a, va],
        [b, vb]
      ])
    rollup().runToIdle(MONTH_END + HOUR + ROLL_GRACE_SECONDS)

    // Minute blocks (one per hour), buckets of 60 s.
    expect(setup.stored('minute', T0 - HOUR, a)).toEqual([expectedBucket(T0 - 60, [1.5, 2.5])])
    expect(setup.stored('minute', T0, a)).toEqual([
      expectedBucket(T0, [0.1, 0.2]),
      expectedBucket(T0 + 60, [0.3]),
      expectedBucket(T0 + HOUR - 60, [-4])
    ])
    // Hour blocks (one per day), buckets of an hour.
    expect(setup.stored('hour', T0, a)).toEqual([
      expectedBucket(T0, [0.1, 0.2, 0.3, -4]),
      expectedBucket(T0 + HOUR, [7.25]),
      expectedBucket(T0 + DAY - HOUR, [9.999])
    ])
    expect(setup.stored('hour', T0, b)).toEqual([
      expectedBucket(T0, [10, 20, 30, 40]),
      expectedBucket(T0 + HOUR, [50]),
      expectedBucket(T0 + DAY - HOUR, [60])
    ])
    // Day blocks (one per month), buckets of a day; December and January apart.
    expect(setup.stored('day', blockStart('day', T0 - 1), a)).toEqual([expectedBucket(T0 - DAY, [1.5, 2.5])])
    expect(setup.stored('day', T0, a)).toEqual([
      expectedBucket(T0, [0.1, 0.2, 0.3, -4, 7.25, 9.999]),
      expectedBucket(T0 + DAY, [1e6]),
      expectedBucket(MONTH_END - DAY, [3])
    ])
    expect(setup.store.history.settings.progress().rolledUntil).toEqual({ minute: MONTH_END + HOUR, hour: MONTH_END, day: MONTH_END })
  })

  it('does not roll an hour until it is over (plus the grace), and reads the newest data from raw rows', () => {
    setup = historySetup(1)
    const [a] = setup.ids
    setup.raw(T0 + 10, [[a, 1]])
    setup.raw(T0 + HOUR + 10, [[a, 2]])
    rollup().runToIdle(T0 + 2 * HOUR + ROLL_GRACE_SECONDS - 1)
    expect(setup.store.history.settings.progress().rolledUntil.minute).toBe(T0 + HOUR)
    expect(setup.stored('minute', T0 + HOUR, a)).toEqual([])
    const read = readSeries(setup.store.history, setup.hostId, [a], 'day', T0, T0 + DAY, DAY)
    expect(read.get(a)).toEqual([expectedBucket(T0, [1, 2])])
  })
})

describe('late and out-of-order samples', () => {
  it('land in every level already rolled exactly as if they had come on time', () => {
    setup = historySetup(1)
    const [a] = setup.ids
    // Out of order before the roll: a newer poll first.
    setup.raw(T0 + 50, [[a, 5]])
    setup.raw(T0 + 20, [[a, 2]])
    const job = rollup()
    job.runToIdle(T0 + 2 * DAY)
    expect(setup.stored('minute', T0, a)).toEqual([expectedBucket(T0, [2, 5])])
    expect(setup.stored('hour', T0, a)).toEqual([expectedBucket(T0, [2, 5])])

    // After the roll: into an existing bucket, a new bucket of a rolled hour, and an hour not rolled.
    setup.raw(T0 + 30, [[a, -1.5]])
    setup.raw(T0 + 5 * 60, [[a, 0.25]])
    setup.raw(T0 + 2 * DAY + 10, [[a, 9]])
    job.runToIdle(T0 + 2 * DAY + 100)
    expect(setup.stored('minute', T0, a)).toEqual([expectedBucket(T0, [2, 5, -1.5]), expectedBucket(T0 + 300, [0.25])])
    expect(setup.stored('hour', T0, a)).toEqual([expectedBucket(T0, [2, 5, -1.5, 0.25])])
    expect(setup.stored('minute', T0 + 2 * DAY, a)).toEqual([])

    // Once the month is over the day level has every sample once.
    job.runToIdle(MONTH_END + DAY)
    expect(setup.stored('day', T0, a)).toEqual([expectedBucket(T0, [2, 5, -1.5, 0.25]), expectedBucket(T0 + 2 * DAY, [9])])
  })

  it('merge into a day already rolled as well', () => {
    setup = historySetup(1)
    const [a] = setup.ids
    setup.raw(T0 + 10, [[a, 1]])
    const job = rollup()
    job.runToIdle(MONTH_END + DAY)
    setup.raw(T0 + 20, [[a, 3]])
    job.runToIdle(MONTH_END + DAY)
    expect(setup.stored('day', T0, a)).toEqual([expectedBucket(T0, [1, 3])])
    expect(setup.stored('hour', T0, a)).toEqual([expectedBucket(T0, [1, 3])])
    // Minutes of a month ago are past their retention: a late sample does not bring them back.
    expect(setup.stored('minute', T0, a)).toEqual([])
  })
})

describe('gaps', () => {
  it('are crossed in a few steps (not one per empty hour, day or month), and late samples inside them still count', () => {
    setup = historySetup(1)
    const [a] = setup.ids
    setup.store.history.settings.setRetention({ raw: 400 * DAY, minute: 400 * DAY, hour: 400 * DAY })
    // A poll, then the agents silent for most of a year, then polls again.
    const back = T0 + 300 * DAY + 7 * HOUR
    setup.raw(T0 + 10, [[a, 1]])
    setup.raw(back + 10, [[a, 2]])
    const job = rollup()
    // Hour by hour, the gap alone took over 7,200 raw rolls of several steps each.
    expect(job.runToIdle(back + 2 * HOUR)).toBeLessThan(100)
    expect(setup.store.history.settings.progress().rolledUntil.minute).toBe(blockStart('minute', back + 2 * HOUR - ROLL_GRACE_SECONDS))
    expect(setup.stored('minute', back, a)).toEqual([expectedBucket(back, [2])])
    expect(setup.stored('hour', T0, a)).toEqual([expectedBucket(T0, [1])])

    // A sample of a day in the gap, arriving late (an agent's queue replayed): merged into the levels rolled past it.
    const inGap = T0 + 100 * DAY + 30
    setup.raw(inGap, [[a, 5]])
    job.runToIdle(back + 2 * HOUR)
    expect(setup.stored('minute', blockStart('minute', inGap), a)).toEqual([expectedBucket(inGap - 30, [5])])
    expect(setup.stored('hour', blockStart('hour', inGap), a)).toEqual([expectedBucket(inGap - 30, [5])])
    job.runToIdle(back + 40 * DAY)
    expect(setup.stored('day', blockStart('day', inGap), a)).toEqual([expectedBucket(inGap - 30, [5])])
    expect(setup.stored('day', T0, a)).toEqual([expectedBucket(T0, [1])])
  })
})

describe('retention', () => {
  it('cuts raw rows at the exact second and blocks only once their whole block is past the cut', () => {
    setup = historySetup(1)
    const [a] = setup.ids
    const { history } = setup.store
    history.settings.setRetention({ raw: 2 * HOUR, minute: 2 * DAY })
    const now = T0 + 10 * DAY
    // Raw: the cut is now - 2 h, here on a minute of a rolled hour.
    const rawCut = now - 2 * HOUR
    setup.raw(T0, [[a, 1]])
    setup.raw(rawCut - 1, [[a, 2]])
    setup.raw(rawCut, [[a, 3]])
    setup.raw(now - 10, [[a, 4]])
    rollup().runToIdle(now)
    const rawTimes = history.raw.ofHost(setup.hostId, 0, now + 1).map((r) => r.time)
    expect(rawTimes).toEqual([rawCut, now - 10])

    // Minute blocks: the cut is now - 2 days = T0 + 8 d; the block ending exactly there is gone, the one
    // starting there is kept (as is the data behind the cut: it is in the hour level).
    const minuteCut = now - 2 * DAY
    setup.raw(minuteCut - 30, [[a, 5]])
    setup.raw(minuteCut, [[a, 6]])
    rollup().runToIdle(now)
    expect(setup.stored('minute', minuteCut - HOUR, a)).toEqual([])
    expect(setup.stored('minute', minuteCut, a)).toEqual([expectedBucket(minuteCut, [6])])
    expect(setup.stored('minute', T0, a)).toEqual([])
    expect(setup.stored('hour', minuteCut - DAY, a)).toEqual([expectedBucket(minuteCut - HOUR, [5])])
    expect(setup.stored('hour', T0, a)).toEqual([expectedBucket(T0, [1])])
  })

  it('refuses retention settings the rollup cannot honour, and keeps the old ones', () => {
    setup = historySetup(1)
    const { settings } = setup.store.history
    expect(settings.retention()).toEqual({ raw: DAY, minute: 14 * DAY, hour: 365 * DAY, day: 5 * 365 * DAY })
    expect(() => settings.setRetention({ raw: HOUR })).toThrow(/raw retention must be at least 7200/)
    expect(() => settings.setRetention({ minute: DAY / 2 })).toThrow(/minute retention/)
    expect(() => settings.setRetention({ hour: 20 * DAY })).toThrow(/hour retention/)
    expect(() => settings.setRetention({ day: 100 * DAY })).toThrow(/day retention must not be shorter than hour/)
    expect(() => settings.setRetention({ raw: 1.5 * DAY + 0.5 })).toThrow(/whole number/)
    expect(settings.retention().raw).toBe(DAY)
    expect(settings.setRetention({ raw: 3 * DAY }).raw).toBe(3 * DAY)
    expect(settings.retention().raw).toBe(3 * DAY)
  })
})

describe('restarts', () => {
  function fill(): number {
    const [a, b] = setup.ids
    for (let t = T0; t < T0 + 3 * HOUR; t += 30)
      setup.raw(t, [
        [a, (t % 7) / 10],
        [b, t % 13]
      ])
    return T0 + 3 * HOUR + ROLL_GRACE_SECONDS
  }

  it('resume from the stored watermark, counting every sample once', () => {
    setup = historySetup(2)
    const now = fill()
    // Interrupted in the middle of rolling the first hour: the in-memory roll is lost.
    const first = rollup()
    while (first.step(now) !== 'wrote') {
      /* until the first write */
    }
    setup.store.close()
    setup.store = new Store(tempStoreLocation(setup.temp.dir))
    setup.raw(T0 + 15, [[setup.ids[0], 0.9]]) // a late sample while the server was down
    rollup().runToIdle(now)
    const [a] = setup.ids
    const hour = setup.store.history.blocks.get('minute', T0, a)
    expect(hour).toBeDefined()
    const series = readSeries(setup.store.history, setup.hostId, [a], 'minute', T0, T0 + 3 * HOUR, HOUR).get(a)!
    expect(series.map((x) => x.count)).toEqual([121, 120, 120])
    expect(series[0].max).toBe(0.9)
    // Running again after a clean restart changes nothing.
    setup.store.close()
    setup.store = new Store(tempStoreLocation(setup.temp.dir))
    rollup().runToIdle(now)
    expect(readSeries(setup.store.history, setup.hostId, [a], 'minute', T0, T0 + 3 * HOUR, HOUR).get(a)).toEqual(series)
  })
})
