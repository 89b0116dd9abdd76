import { describe, expect, it } from 'vitest'
import { TrendCell, trendCells } from '../../../src/server/domain/trend'

const NOW = 1_800_000_000
const H = 3600
const { Up, ServiceDown, Silent, Unknown } = TrendCell

describe('trendCells', () => {
  it('marks every cell a service was down in, oldest cell first', () => {
    const cells = trendCells([{ service_name_id: 7, start: NOW - 5.5 * H, end: NOW - 3.2 * H }], NOW, 6, H)
    // Cells [-6 h, -5 h), [-5 h, -4 h), [-4 h, -3 h)… : the interval touches the first three.
    expect(cells).toEqual([ServiceDown, ServiceDown, ServiceDown, Up, Up, Up])
  })

  it('runs an open interval up to now, and lets silence outrank a service down', () => {
    const cells = trendCells(
      [
        { service_name_id: 7, start: NOW - 2.5 * H, end: null },
        { service_name_id: null, start: NOW - 1.5 * H, end: NOW - 1.2 * H }
      ],
      NOW,
      4,
      H
    )
    expect(cells).toEqual([Up, ServiceDown, Silent, ServiceDown])
  })

  it('ignores what ended before the window and clips what started before it', () => {
    const cells = trendCells(
      [
        { service_name_id: 1, start: NOW - 10 * H, end: NOW - 4 * H },
        { service_name_id: 2, start: NOW - 10 * H, end: NOW - 3.5 * H }
      ],
      NOW,
      3,
      H
    )
    expect(cells).toEqual([Up, Up, Up])
    expect(trendCells([{ service_name_id: 2, start: NOW - 10 * H, end: NOW - 2.5 * H }], NOW, 3, H)).toEqual([ServiceDown, Up, Up])
  })

  it('counts a failure that started this very second', () => {
    expect(trendCells([{ service_name_id: 2, start: NOW, end: null }], NOW, 2, H)).toEqual([Up, ServiceDown])
  })

  it('leaves the hours before the host first reported unknown, not up', () => {
    expect(trendCells([], NOW, 4, H, NOW - 1.5 * H)).toEqual([Unknown, Unknown, Up, Up])
  })
})
