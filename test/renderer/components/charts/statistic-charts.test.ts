import { describe, expect, it } from 'vitest'
import { Range } from '../../../../src/shared/ranges'
import { Stat } from '../../../../src/shared/codes'
import {
  chartedTypes,
  chartGroups,
  descriptorName,
  lineName,
  spanCaption
} from '../../../../src/renderer/components/charts/statistic-charts'
import { formatWhen } from '../../../../src/renderer/components/relative-time'
import { axisUnitOf, statisticName } from '../../../../src/renderer/screens/monitor/statistics'

const series = (type: number, descriptor = '', points: number[][] = [[1000, 1, 1, 1]]) => ({ type, descriptor, points })
const titles = (...types: number[]) => chartGroups(types.map((t) => series(t))).map((g) => g.title)

describe('chartGroups', () => {
  it('puts figures of one unit on each chart, so its axis has one', () => {
    for (const types of chartedTypes) expect(new Set(types.map(axisUnitOf)).size, types.map(statisticName).join(', ')).toBe(1)
  })

  it("titles a process's memory 'Memory', a system's with swap 'Memory and swap'", () => {
    expect(titles(Stat.ProcessMemoryPercent, Stat.ProcessMemoryPercentTotal, Stat.ProcessMemoryKilobyte)).toEqual([
      'Memory used (%)',
      'Memory used'
    ])
    expect(titles(Stat.MemoryPercent, Stat.SwapPercent, Stat.MemoryKilobyte, Stat.SwapKilobyte)).toEqual([
      'Memory and swap used (%)',
      'Memory and swap used'
    ])
    expect(titles(Stat.InodePercent)).toEqual(['Inodes used (%)'])
    expect(titles(Stat.ProcessReadBytesGeneric, Stat.ProcessWriteBytes)).toEqual(['Reads and writes'])
    expect(titles(Stat.FilesystemReadBytes)).toEqual(['Disk reads and writes'])
  })

  it('leaves out what is not charted and series without points', () => {
    expect(chartGroups([series(Stat.Pid), series(Stat.ProcessReadBytesGenericTotal), series(Stat.CpuUser, '', [])])).toEqual([])
  })
})

describe('lineName', () => {
  it('names every charted line in words', () => {
    for (const type of chartedTypes.flat()) expect(lineName(type, ''), statisticName(type)).not.toBe('Value')
    expect(lineName(Stat.ProcessReadBytesGeneric, '')).toBe('Read, all I/O')
    expect(lineName(Stat.ProcessCpuPercentTotal, '')).toBe('With its children')
  })

  it("names Monit's load averages by their period and keeps a test's descriptor", () => {
    expect(['avg01', 'avg05', 'avg15'].map((d) => lineName(Stat.LoadAverage, d))).toEqual(['1 minute', '5 minutes', '15 minutes'])
    expect(descriptorName(Stat.LoadAverage, 'avg05')).toBe('5 minutes')
    expect(lineName(Stat.PortResponseTime, 'localhost:80 [HTTP]')).toBe('Port localhost:80 [HTTP]')
  })
})

describe('spanCaption', () => {
  const day = { range: Range.Last24Hours, datefrom: 1_795_200_000, dateto: 1_795_286_400, resolution: 300 }
  const startingAt = (t: number) => [{ title: 'CPU usage', series: [{ points: [[t, 1, 1, 1]] }] }]

  it('says when the data starts later than the range', () => {
    const first = day.dateto - 3 * 3600
    expect(spanCaption('Last 24 hours', day, startingAt(first))).toBe(`Last 24 hours — data since ${formatWhen(first, day.dateto)}`)
  })

  it('is the range alone when the data covers it', () => {
    expect(spanCaption('Last 24 hours', day, startingAt(day.datefrom))).toBe('Last 24 hours')
    expect(spanCaption('Last 24 hours', day, startingAt(day.datefrom + day.resolution))).toBe('Last 24 hours')
  })

  it('names the two ends of a custom range', () => {
    const custom = { ...day, range: Range.Custom }
    expect(spanCaption('Custom range', custom, startingAt(day.datefrom))).toBe(
      `${formatWhen(day.datefrom, day.dateto)} to ${formatWhen(day.dateto, day.dateto)}`
    )
  })
})
