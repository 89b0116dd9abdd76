import { describe, expect, it } from 'vitest'
import { serverSegments } from '../../../../src/renderer/screens/reports/server-downtime-segments'

const F = 1_800_000_000
const range = (serverdown: { from: number; to: number }[]) => ({ datefrom: F, dateto: F + 1000, serverdown })

describe('serverSegments', () => {
  it('is one running segment without server downtime', () => {
    expect(serverSegments(range([]), F + 5000)).toEqual([{ running: true, from: F, to: F + 1000, percent: 100 }])
  })

  it('marks each downtime as a distinct not-running segment, in order', () => {
    expect(serverSegments(range([{ from: F + 600, to: F + 700 }, { from: F + 100, to: F + 200 }]), F + 5000)).toEqual([
      { running: true, from: F, to: F + 100, percent: 10 },
      { running: false, from: F + 100, to: F + 200, percent: 10 },
      { running: true, from: F + 200, to: F + 600, percent: 40 },
      { running: false, from: F + 600, to: F + 700, percent: 10 },
      { running: true, from: F + 700, to: F + 1000, percent: 30 }
    ])
  })

  it('draws only the elapsed part of a range reaching past now', () => {
    expect(serverSegments(range([{ from: F, to: F + 100 }]), F + 500)).toEqual([
      { running: false, from: F, to: F + 100, percent: 20 },
      { running: true, from: F + 100, to: F + 500, percent: 80 }
    ])
    expect(serverSegments(range([]), F - 10)).toEqual([])
  })
})
