import { describe, expect, it } from 'vitest'
import { Stat } from '../../../../src/shared/codes'
import { formatStatistic } from '../../../../src/renderer/screens/monitor/statistics'

describe('formatStatistic', () => {
  it('writes process and user ids as they are, without thousands separators', () => {
    expect(formatStatistic(Stat.Pid, 1234567)).toBe('1234567')
    expect(formatStatistic(Stat.PPid, 40123)).toBe('40123')
    expect(formatStatistic(Stat.Uid, 65534)).toBe('65534')
  })

  it('still groups the digits of other plain figures', () => {
    expect(formatStatistic(Stat.Children, 12345)).toBe((12345).toLocaleString())
  })
})
