// Which chart a statistic is drawn in, the chart's title and each line's name, in words: the title says
// what is measured for this service ("Memory used" for a process, "Memory and swap used" for a system
// that reports swap), the legend what each line is within it ("This process", "With its children").
// Every chart holds figures of one unit (test/renderer/components/charts/statistic-charts.test.ts), so
// its axis has one. Identities, limits, timestamps and ever-growing totals are not charted.
import type { AnalyticsReport } from '../../../shared/api/analytics'
import { Stat } from '../../../shared/codes'
import { Range } from '../../../shared/ranges'
import { formatWhen } from '../relative-time'

interface ChartKind {
  /** The chart's title, from the figures it draws. */
  title: (has: (type: number) => boolean) => string
  types: readonly number[]
}

/** "Space and inodes", "Space" or "Inodes", as the chart holds one or both. */
const both = (first: string, second: string, a: boolean, b: boolean) => {
  const words = a && b ? `${first} and ${second}` : a ? first : second
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const kinds: readonly ChartKind[] = [
  {
    title: () => 'CPU usage',
    types: [
      Stat.CpuUser,
      Stat.CpuSystem,
      Stat.CpuWait,
      Stat.CpuNice,
      Stat.CpuHardIrq,
      Stat.CpuSoftIrq,
      Stat.CpuSteal,
      Stat.CpuGuest,
      Stat.CpuGuestNice,
      Stat.ProcessCpuPercent,
      Stat.ProcessCpuPercentTotal
    ]
  },
  {
    title: (has) => `${has(Stat.SwapPercent) ? 'Memory and swap' : 'Memory'} used (%)`,
    types: [Stat.MemoryPercent, Stat.SwapPercent, Stat.ProcessMemoryPercent, Stat.ProcessMemoryPercentTotal]
  },
  {
    title: (has) => `${has(Stat.SwapKilobyte) ? 'Memory and swap' : 'Memory'} used`,
    types: [Stat.MemoryKilobyte, Stat.SwapKilobyte, Stat.ProcessMemoryKilobyte, Stat.ProcessMemoryKilobyteTotal]
  },
  { title: () => 'Load average', types: [Stat.LoadAverage] },
  {
    title: (has) => `${both('Space', 'inodes', has(Stat.SpacePercent), has(Stat.InodePercent))} used (%)`,
    types: [Stat.SpacePercent, Stat.InodePercent]
  },
  { title: () => 'Space used', types: [Stat.SpaceMegabyte] },
  { title: () => 'Inodes used', types: [Stat.InodeCount] },
  { title: () => 'Response time', types: [Stat.PortResponseTime, Stat.UnixSocketResponseTime, Stat.PingResponseTime] },
  { title: () => 'Network traffic', types: [Stat.NetBytesIn, Stat.NetBytesOut] },
  { title: () => 'Network packets', types: [Stat.NetPacketsIn, Stat.NetPacketsOut] },
  { title: () => 'Network errors', types: [Stat.NetErrorsIn, Stat.NetErrorsOut] },
  {
    title: (has) => (has(Stat.FilesystemReadBytes) || has(Stat.FilesystemWriteBytes) ? 'Disk reads and writes' : 'Reads and writes'),
    types: [
      Stat.FilesystemReadBytes,
      Stat.FilesystemWriteBytes,
      Stat.ProcessReadBytes,
      Stat.ProcessWriteBytes,
      Stat.ProcessReadBytesGeneric,
      Stat.ProcessWriteBytesGeneric
    ]
  },
  {
    title: () => 'Read and write operations',
    types: [Stat.FilesystemReadOperations, Stat.FilesystemWriteOperations, Stat.ProcessReadOperations, Stat.ProcessWriteOperations]
  },
  {
    title: () => 'Disk service time',
    types: [
      Stat.FilesystemServiceTimeRead,
      Stat.FilesystemServiceTimeWrite,
      Stat.FilesystemServiceTimeWait,
      Stat.FilesystemServiceTimeRun,
      Stat.FilesystemServiceTime
    ]
  },
  { title: (has) => both('Children', 'threads', has(Stat.Children), has(Stat.Threads)), types: [Stat.Children, Stat.Threads] },
  {
    title: () => 'Open files',
    types: [
      Stat.SystemFileDescriptorsAllocated,
      Stat.SystemFileDescriptorsUnused,
      Stat.ProcessFileDescriptorsOpen,
      Stat.ProcessFileDescriptorsOpenTotal
    ]
  },
  { title: () => 'Size', types: [Stat.Size] },
  { title: () => 'Exit status', types: [Stat.ProgramStatus] },
  { title: () => 'Certificate validity', types: [Stat.CertificateValidDays] }
]

const kindOf = new Map(kinds.flatMap((kind) => kind.types.map((type) => [type, kind] as const)))

/** Every charted statistic type, for the test that each chart has one unit. */
export const chartedTypes: readonly (readonly number[])[] = kinds.map((k) => k.types)

/** What each line is within its chart (the chart's title says what is measured). */
const lineNames: Partial<Record<number, string>> = {
  [Stat.CpuUser]: 'User',
  [Stat.CpuSystem]: 'System',
  [Stat.CpuWait]: 'I/O wait',
  [Stat.CpuNice]: 'Nice',
  [Stat.CpuHardIrq]: 'Hardware interrupts',
  [Stat.CpuSoftIrq]: 'Software interrupts',
  [Stat.CpuSteal]: 'Stolen by the hypervisor',
  [Stat.CpuGuest]: 'Guests',
  [Stat.CpuGuestNice]: 'Guests (nice)',
  [Stat.ProcessCpuPercent]: 'This process',
  [Stat.ProcessCpuPercentTotal]: 'With its children',
  [Stat.MemoryPercent]: 'Memory',
  [Stat.SwapPercent]: 'Swap',
  [Stat.MemoryKilobyte]: 'Memory',
  [Stat.SwapKilobyte]: 'Swap',
  [Stat.ProcessMemoryPercent]: 'This process',
  [Stat.ProcessMemoryPercentTotal]: 'With its children',
  [Stat.ProcessMemoryKilobyte]: 'This process',
  [Stat.ProcessMemoryKilobyteTotal]: 'With its children',
  [Stat.SpacePercent]: 'Space',
  [Stat.InodePercent]: 'Inodes',
  [Stat.SpaceMegabyte]: 'Space',
  [Stat.InodeCount]: 'Inodes',
  [Stat.PortResponseTime]: 'Port',
  [Stat.UnixSocketResponseTime]: 'Socket',
  [Stat.PingResponseTime]: 'Ping',
  [Stat.NetBytesIn]: 'Received',
  [Stat.NetBytesOut]: 'Sent',
  [Stat.NetPacketsIn]: 'Received',
  [Stat.NetPacketsOut]: 'Sent',
  [Stat.NetErrorsIn]: 'Receiving',
  [Stat.NetErrorsOut]: 'Sending',
  [Stat.FilesystemReadBytes]: 'Read',
  [Stat.FilesystemWriteBytes]: 'Written',
  [Stat.ProcessReadBytes]: 'Read from disk',
  [Stat.ProcessWriteBytes]: 'Written to disk',
  [Stat.ProcessReadBytesGeneric]: 'Read, all I/O',
  [Stat.ProcessWriteBytesGeneric]: 'Written, all I/O',
  [Stat.FilesystemReadOperations]: 'Reads',
  [Stat.FilesystemWriteOperations]: 'Writes',
  [Stat.ProcessReadOperations]: 'Reads',
  [Stat.ProcessWriteOperations]: 'Writes',
  [Stat.FilesystemServiceTimeRead]: 'Reading',
  [Stat.FilesystemServiceTimeWrite]: 'Writing',
  [Stat.FilesystemServiceTimeWait]: 'Waiting',
  [Stat.FilesystemServiceTimeRun]: 'Running',
  [Stat.FilesystemServiceTime]: 'Overall',
  [Stat.Children]: 'Children',
  [Stat.Threads]: 'Threads',
  [Stat.SystemFileDescriptorsAllocated]: 'Open',
  [Stat.SystemFileDescriptorsUnused]: 'Allocated, unused',
  [Stat.ProcessFileDescriptorsOpen]: 'This process',
  [Stat.ProcessFileDescriptorsOpenTotal]: 'With its children',
  [Stat.Size]: 'Size',
  [Stat.ProgramStatus]: 'Exit status',
  [Stat.CertificateValidDays]: 'Days left'
}

/** Monit's names of the load averages. */
const loadPeriods: Record<string, string> = { avg01: '1 minute', avg05: '5 minutes', avg15: '15 minutes' }

/** What tells apart figures of one type, in words: the load's period ("1 minute" for Monit's avg01), else as reported. */
export function descriptorName(type: number, descriptor: string): string {
  return type === Stat.LoadAverage ? (loadPeriods[descriptor] ?? descriptor) : descriptor
}

/**
 * A line's name in its chart's legend. The descriptor tells apart lines of one type (the port, the
 * socket, the load's period); alone, it is the name.
 */
export function lineName(type: number, descriptor: string): string {
  if (type === Stat.LoadAverage) return descriptorName(type, descriptor) || 'Load'
  const name = lineNames[type] ?? 'Value'
  return descriptor ? `${name} ${descriptor}` : name
}

export interface ChartGroup<T> {
  title: string
  series: T[]
}

/** Series with points, gathered into their charts, titled from what they hold, in the order the charts first appear. */
export function chartGroups<T extends { type: number; points: readonly unknown[] }>(series: readonly T[]): ChartGroup<T>[] {
  const groups = new Map<ChartKind, T[]>()
  for (const s of series) {
    const kind = kindOf.get(s.type)
    if (kind === undefined || s.points.length === 0) continue
    const list = groups.get(kind)
    if (list) list.push(s)
    else groups.set(kind, [s])
  }
  return [...groups].map(([kind, list]) => ({ title: kind.title((type) => list.some((s) => s.type === type)), series: list }))
}

/**
 * The range as asked for, and when the data starts if that is later than the range does by more than a
 * point: "Last 24 hours — data since 11:54".
 */
export function spanCaption(
  rangeName: string,
  span: Pick<AnalyticsReport, 'range' | 'datefrom' | 'dateto' | 'resolution'>,
  groups: readonly ChartGroup<{ points: readonly (readonly number[])[] }>[]
): string {
  const named =
    span.range === Range.Custom ? `${formatWhen(span.datefrom, span.dateto)} to ${formatWhen(span.dateto, span.dateto)}` : rangeName
  const first = Math.min(...groups.flatMap((g) => g.series.map((s) => s.points[0][0])))
  return first > span.datefrom + span.resolution ? `${named} — data since ${formatWhen(first, span.dateto)}` : named
}
