// The hosts list's 24-hour trend says when each failure was, not only how many hours.
import { describe, expect, it } from 'vitest'
import { trendSummary } from '../../../../src/renderer/screens/monitor/trend-bar'

const NOW = 1_795_300_000
const at = (hoursAgo: number) => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format((NOW - hoursAgo * 3600) * 1000)
const cells = (runs: [state: number, hours: number][]) => runs.flatMap(([state, hours]) => Array<number>(hours).fill(state))

describe('trendSummary', () => {
  it('says nothing failed when every hour is up or not known yet', () => {
    expect(
      trendSummary(
        cells([
          [3, 10],
          [0, 14]
        ]),
        NOW
      )
    ).toBe('No failure in the last 24 hours')
  })

  it('names each run of failing hours with its clock times, oldest first, the last one until now', () => {
    const trend = cells([
      [0, 5],
      [1, 2],
      [0, 10],
      [2, 1],
      [1, 1],
      [0, 3],
      [2, 2]
    ])
    expect(trendSummary(trend, NOW)).toBe(
      `Last 24 hours: a service down ${at(19)}–${at(17)}, silent ${at(7)}–${at(6)}, a service down ${at(6)}–${at(5)}, silent ${at(2)}–now`
    )
  })
})
