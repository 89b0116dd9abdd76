import { describe, expect, it } from 'vitest'
import { downtimesWithin, serverDowntimes, type ServerRun } from '../../../src/server/domain/server-runs'

const T = 1_800_000_000
const run = (started_at: number, alive_at: number, stopped_at: number | null = null): ServerRun => ({ started_at, alive_at, stopped_at })

describe('serverDowntimes', () => {
  it('is empty for no run or one run', () => {
    expect(serverDowntimes([])).toEqual([])
    expect(serverDowntimes([run(T, T + 100)])).toEqual([])
  })

  it('runs from a clean stop to the next start', () => {
    expect(serverDowntimes([run(T, T + 90, T + 100), run(T + 148, T + 200)])).toEqual([{ start: T + 100, end: T + 148 }])
  })

  it('runs from the last alive stamp to the next start after a crash (no stop written)', () => {
    expect(serverDowntimes([run(T, T + 90), run(T + 130, T + 140)])).toEqual([{ start: T + 90, end: T + 130 }])
  })

  it('lists every gap in order, and none for a restart within the same second', () => {
    expect(serverDowntimes([run(T, T + 10, T + 10), run(T + 10, T + 20, T + 25), run(T + 60, T + 70), run(T + 95, T + 99)])).toEqual([
      { start: T + 25, end: T + 60 },
      { start: T + 70, end: T + 95 }
    ])
  })
})

describe('downtimesWithin', () => {
  it('cuts the downtimes to the range and to now, dropping those outside', () => {
    const gaps = [
      { start: T - 50, end: T + 10 },
      { start: T + 40, end: T + 45 },
      { start: T + 80, end: T + 200 },
      { start: T + 300, end: T + 400 }
    ]
    expect(downtimesWithin(gaps, { from: T, to: T + 250 }, T + 150)).toEqual([
      { start: T, end: T + 10 },
      { start: T + 40, end: T + 45 },
      { start: T + 80, end: T + 150 }
    ])
  })
})
