import { describe, expect, it } from 'vitest'
import { Stat, statisticTypeNames } from '../../../../src/shared/codes'
import { axisSteps, formatAxis, formatStatistic, statisticName } from '../../../../src/renderer/screens/monitor/statistics'

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

describe('statisticName', () => {
  // The code table's names spelled out ("Process read bytes generic total") are what people must not read.
  const spelled = (type: number) => {
    const words = statisticTypeNames[type].replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
    return words.charAt(0).toUpperCase() + words.slice(1)
  }

  it('names every statistic Monit sends in words, not its code name', () => {
    // These read well as spelled; any other code name on screen is a statistic left without a name.
    const readWell = new Set<number>([
      Stat.LoadAverage,
      Stat.PortResponseTime,
      Stat.PingResponseTime,
      Stat.SpaceTotal,
      Stat.FilesystemType,
      Stat.SystemUptime
    ])
    const raw = Object.values(Stat).filter(
      (type) => statisticName(type) === spelled(type) && spelled(type).includes(' ') && !readWell.has(type)
    )
    expect(raw.map((type) => statisticTypeNames[type])).toEqual([])
    expect(statisticName(Stat.ProcessReadBytesGenericTotal)).toBe('Read in total, all I/O')
    expect(statisticName(Stat.ProcessMemoryKilobyteTotal)).toBe('Memory with children')
  })
})

describe('formatAxis', () => {
  const n = (value: number) => value.toLocaleString()

  it('labels every tick of a size axis in the one unit the largest tick reads best in', () => {
    const mb = 1024
    expect(formatAxis(Stat.MemoryKilobyte, [0, 512 * mb, 1024 * mb, 1536 * mb])).toEqual(['0 GB', `${n(0.5)} GB`, '1 GB', `${n(1.5)} GB`])
    expect(formatAxis(Stat.NetBytesIn, [0, 250, 500])).toEqual(['0 B/s', '250 B/s', '500 B/s'])
    expect(formatAxis(Stat.SpaceMegabyte, [0, 2048])).toEqual(['0 GB', '2 GB'])
    // A flat line of 22.29 GB: ticks half a MB apart are told apart in MB, not all "22.29 GB".
    expect(formatAxis(Stat.SpaceMegabyte, [22_825, 22_825.5, 22_826])).toEqual([`${n(22_825)} MB`, `${n(22_825.5)} MB`, `${n(22_826)} MB`])
  })

  it("steps between ticks by round numbers of a byte unit, in the figure's own unit", () => {
    // Memory is reported in kB: a step of 250 MB (256,000 kB), not of 250,000 kB (244.14 MB).
    expect(axisSteps(Stat.MemoryKilobyte)).toContain(250 * 1024)
    expect(axisSteps(Stat.MemoryKilobyte)).not.toContain(250_000)
    expect(axisSteps(Stat.NetBytesIn)).toContain(500 * 1024)
    expect(axisSteps(Stat.CpuUser)).toBeUndefined()
  })

  it('keeps the figure formats whose unit does not scale', () => {
    expect(formatAxis(Stat.CpuUser, [0, 50])).toEqual([formatStatistic(Stat.CpuUser, 0), formatStatistic(Stat.CpuUser, 50)])
    expect(formatAxis(Stat.PortResponseTime, [0.001, 0.002])).toEqual(['1 ms', '2 ms'])
  })
})
