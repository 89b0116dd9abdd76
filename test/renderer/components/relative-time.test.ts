import { describe, expect, it } from 'vitest'
import { formatAge } from '../../../src/renderer/components/relative-time'

const NOW = 1_800_000_000

describe('formatAge', () => {
  it.each([
    [0, '0 s'],
    [12.7, '12 s'],
    [59, '59 s'],
    [60, '1 min'],
    [3599, '59 min'],
    [3600, '1 h'],
    [3600 + 600, '1 h 10 min'],
    [86_400, '1 d'],
    [2 * 86_400 + 4 * 3600 + 59, '2 d 4 h']
  ])('reads %s seconds as "%s"', (age, text) => {
    expect(formatAge(NOW - age, NOW)).toBe(text)
  })

  it('reads a time a little ahead (clock skew) as now, never negative', () => {
    expect(formatAge(NOW + 3, NOW)).toBe('0 s')
  })
})
