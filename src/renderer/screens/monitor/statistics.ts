// How a statistic reads: its name and its value with a unit. Monit reports response times in seconds,
// memory in kB, space in MB, times as unix seconds; people read ms, MB/GB, dates and durations.
import { Stat, statisticTypeNames } from '../../../shared/codes'

type Kind =
  | 'percent'
  | 'kilobytes'
  | 'megabytes'
  | 'bytes'
  | 'bytesPerSecond'
  | 'perSecond'
  | 'seconds'
  | 'milliseconds'
  | 'date'
  | 'duration'
  | 'days'
  | 'octal'
  | 'identifier'
  | 'plain'

const kinds: Partial<Record<number, Kind>> = {}
const assign = (kind: Kind, ...types: number[]) => {
  for (const t of types) kinds[t] = kind
}
assign(
  'percent',
  Stat.CpuUser,
  Stat.CpuSystem,
  Stat.CpuWait,
  Stat.MemoryPercent,
  Stat.SwapPercent,
  Stat.ProcessCpuPercent,
  Stat.ProcessCpuPercentTotal,
  Stat.ProcessMemoryPercent,
  Stat.ProcessMemoryPercentTotal,
  Stat.SpacePercent,
  Stat.InodePercent,
  Stat.CpuNice,
  Stat.CpuHardIrq,
  Stat.CpuSoftIrq,
  Stat.CpuSteal,
  Stat.CpuGuest,
  Stat.CpuGuestNice
)
assign('kilobytes', Stat.MemoryKilobyte, Stat.SwapKilobyte, Stat.ProcessMemoryKilobyte, Stat.ProcessMemoryKilobyteTotal)
assign('megabytes', Stat.SpaceMegabyte, Stat.SpaceTotal)
assign(
  'bytes',
  Stat.Size,
  Stat.NetBytesInTotal,
  Stat.NetBytesOutTotal,
  Stat.FilesystemReadBytesTotal,
  Stat.FilesystemWriteBytesTotal,
  Stat.ProcessReadBytesTotal,
  Stat.ProcessWriteBytesTotal,
  Stat.ProcessReadBytesGenericTotal,
  Stat.ProcessWriteBytesGenericTotal
)
assign(
  'bytesPerSecond',
  Stat.NetBytesIn,
  Stat.NetBytesOut,
  Stat.FilesystemReadBytes,
  Stat.FilesystemWriteBytes,
  Stat.ProcessReadBytes,
  Stat.ProcessWriteBytes,
  Stat.ProcessReadBytesGeneric,
  Stat.ProcessWriteBytesGeneric,
  Stat.NetSpeed
)
assign(
  'perSecond',
  Stat.NetPacketsIn,
  Stat.NetPacketsOut,
  Stat.NetErrorsIn,
  Stat.NetErrorsOut,
  Stat.FilesystemReadOperations,
  Stat.FilesystemWriteOperations,
  Stat.ProcessReadOperations,
  Stat.ProcessWriteOperations
)
assign('seconds', Stat.PortResponseTime, Stat.UnixSocketResponseTime, Stat.PingResponseTime)
assign(
  'milliseconds',
  Stat.FilesystemServiceTimeRead,
  Stat.FilesystemServiceTimeWrite,
  Stat.FilesystemServiceTimeWait,
  Stat.FilesystemServiceTimeRun,
  Stat.FilesystemServiceTime
)
assign('date', Stat.Timestamp, Stat.TimestampAccess, Stat.TimestampChange, Stat.TimestampModify, Stat.ProgramStarted)
assign('duration', Stat.Uptime, Stat.SystemUptime, Stat.Downtime)
assign('days', Stat.CertificateValidDays)
assign('octal', Stat.Mode)
// Numbers people copy into `kill` or `id`: no thousands separators.
assign('identifier', Stat.Pid, Stat.PPid, Stat.Uid, Stat.Gid, Stat.EffectiveUid)

/** Each figure's name in the figures table: what it is, for whom ("with its children": the process and its children). */
const names: Partial<Record<number, string>> = {
  [Stat.LoadAverage]: 'Load average',
  [Stat.CpuUser]: 'CPU user',
  [Stat.CpuSystem]: 'CPU system',
  [Stat.CpuWait]: 'CPU I/O wait',
  [Stat.CpuNice]: 'CPU nice',
  [Stat.CpuHardIrq]: 'CPU hardware interrupts',
  [Stat.CpuSoftIrq]: 'CPU software interrupts',
  [Stat.CpuSteal]: 'CPU stolen by the hypervisor',
  [Stat.CpuGuest]: 'CPU guests',
  [Stat.CpuGuestNice]: 'CPU guests (nice)',
  [Stat.MemoryPercent]: 'Memory',
  [Stat.MemoryKilobyte]: 'Memory',
  [Stat.SwapPercent]: 'Swap',
  [Stat.SwapKilobyte]: 'Swap',
  [Stat.ProcessCpuPercent]: 'CPU',
  [Stat.ProcessCpuPercentTotal]: 'CPU with children',
  [Stat.ProcessMemoryPercent]: 'Memory',
  [Stat.ProcessMemoryPercentTotal]: 'Memory with children',
  [Stat.ProcessMemoryKilobyte]: 'Memory',
  [Stat.ProcessMemoryKilobyteTotal]: 'Memory with children',
  [Stat.Children]: 'Children',
  [Stat.Threads]: 'Threads',
  [Stat.PortResponseTime]: 'Port response time',
  [Stat.UnixSocketResponseTime]: 'Socket response time',
  [Stat.PingResponseTime]: 'Ping response time',
  [Stat.SpacePercent]: 'Space used',
  [Stat.SpaceMegabyte]: 'Space used',
  [Stat.SpaceTotal]: 'Space total',
  [Stat.InodePercent]: 'Inodes used',
  [Stat.InodeCount]: 'Inodes used',
  [Stat.InodeTotal]: 'Inodes total',
  [Stat.FilesystemType]: 'Filesystem type',
  [Stat.FilesystemReadBytes]: 'Read rate',
  [Stat.FilesystemReadBytesTotal]: 'Read in total',
  [Stat.FilesystemReadOperations]: 'Reads',
  [Stat.FilesystemReadOperationsTotal]: 'Reads in total',
  [Stat.FilesystemWriteBytes]: 'Write rate',
  [Stat.FilesystemWriteBytesTotal]: 'Written in total',
  [Stat.FilesystemWriteOperations]: 'Writes',
  [Stat.FilesystemWriteOperationsTotal]: 'Writes in total',
  [Stat.FilesystemServiceTimeRead]: 'Service time reading',
  [Stat.FilesystemServiceTimeWrite]: 'Service time writing',
  [Stat.FilesystemServiceTimeWait]: 'Service time waiting',
  [Stat.FilesystemServiceTimeRun]: 'Service time running',
  [Stat.FilesystemServiceTime]: 'Service time',
  [Stat.ProcessReadBytes]: 'Disk read rate',
  [Stat.ProcessReadBytesTotal]: 'Read from disk in total',
  [Stat.ProcessReadOperations]: 'Reads',
  [Stat.ProcessReadOperationsTotal]: 'Reads in total',
  [Stat.ProcessWriteBytes]: 'Disk write rate',
  [Stat.ProcessWriteBytesTotal]: 'Written to disk in total',
  [Stat.ProcessWriteOperations]: 'Writes',
  [Stat.ProcessWriteOperationsTotal]: 'Writes in total',
  [Stat.ProcessReadBytesGeneric]: 'Read rate, all I/O',
  [Stat.ProcessReadBytesGenericTotal]: 'Read in total, all I/O',
  [Stat.ProcessWriteBytesGeneric]: 'Write rate, all I/O',
  [Stat.ProcessWriteBytesGenericTotal]: 'Written in total, all I/O',
  [Stat.ProcessFileDescriptorsOpen]: 'Open files',
  [Stat.ProcessFileDescriptorsOpenTotal]: 'Open files with children',
  [Stat.ProcessFileDescriptorsLimitSoft]: 'Open files limit (soft)',
  [Stat.ProcessFileDescriptorsLimitHard]: 'Open files limit (hard)',
  [Stat.SystemFileDescriptorsAllocated]: 'Open files',
  [Stat.SystemFileDescriptorsUnused]: 'File handles allocated, unused',
  [Stat.SystemFileDescriptorsMaximum]: 'Open files limit',
  [Stat.ProgramStatus]: 'Exit status',
  [Stat.ProgramOutput]: 'Output',
  [Stat.ProgramStarted]: 'Started at',
  [Stat.Flags]: 'Flags',
  [Stat.Mode]: 'Permissions',
  [Stat.Pid]: 'PID',
  [Stat.PPid]: 'Parent PID',
  [Stat.Uid]: 'UID',
  [Stat.Gid]: 'GID',
  [Stat.EffectiveUid]: 'Effective UID',
  [Stat.Size]: 'Size',
  [Stat.Hardlinks]: 'Hard links',
  [Stat.Checksum]: 'Checksum',
  [Stat.Timestamp]: 'Changed at',
  [Stat.TimestampAccess]: 'Accessed at',
  [Stat.TimestampChange]: 'Status changed at',
  [Stat.TimestampModify]: 'Modified at',
  [Stat.Uptime]: 'Uptime',
  [Stat.SystemUptime]: 'System uptime',
  [Stat.Downtime]: 'Downtime',
  [Stat.NetState]: 'Link',
  [Stat.NetSpeed]: 'Link speed',
  [Stat.NetDuplex]: 'Duplex',
  [Stat.NetBytesIn]: 'Received',
  [Stat.NetBytesInTotal]: 'Received in total',
  [Stat.NetPacketsIn]: 'Packets received',
  [Stat.NetPacketsInTotal]: 'Packets received in total',
  [Stat.NetErrorsIn]: 'Receive errors',
  [Stat.NetErrorsInTotal]: 'Receive errors in total',
  [Stat.NetBytesOut]: 'Sent',
  [Stat.NetBytesOutTotal]: 'Sent in total',
  [Stat.NetPacketsOut]: 'Packets sent',
  [Stat.NetPacketsOutTotal]: 'Packets sent in total',
  [Stat.NetErrorsOut]: 'Send errors',
  [Stat.NetErrorsOutTotal]: 'Send errors in total',
  [Stat.CertificateValidDays]: 'Certificate valid'
}

/** The figures that say most about a service, best first: the table row shows the first few it has. */
const keyFigures: readonly number[] = [
  Stat.CpuUser,
  Stat.CpuSystem,
  Stat.MemoryPercent,
  Stat.LoadAverage,
  Stat.ProcessCpuPercentTotal,
  Stat.ProcessMemoryPercentTotal,
  Stat.ProcessMemoryKilobyteTotal,
  Stat.SpacePercent,
  Stat.InodePercent,
  Stat.PingResponseTime,
  Stat.PortResponseTime,
  Stat.UnixSocketResponseTime,
  Stat.ProgramStatus,
  Stat.NetBytesIn,
  Stat.NetBytesOut,
  Stat.Size,
  Stat.Timestamp,
  Stat.CertificateValidDays,
  Stat.Pid
]

export function keyFigureRank(type: number): number {
  const rank = keyFigures.indexOf(type)
  return rank === -1 ? keyFigures.length : rank
}

/** "CPU user", or the code table's name spelled out ("NetBytesIn" → "Net bytes in"). */
export function statisticName(type: number): string {
  const known = names[type]
  if (known) return known
  const raw = statisticTypeNames[type]
  if (!raw) return `Statistic ${type}`
  const words = raw.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const number = (n: number, digits = 1) => n.toLocaleString(undefined, { maximumFractionDigits: digits })

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB']

/** The power of 1024 a number of bytes reads best in: the largest that leaves at least 1. */
const byteUnit = (bytes: number) => Math.min(BYTE_UNITS.length - 1, Math.max(0, Math.floor(Math.log(Math.abs(bytes)) / Math.log(1024))))

const inByteUnit = (bytes: number, unit: number, digits = 1) =>
  `${number(bytes / 1024 ** unit, unit === 0 ? 0 : digits)} ${BYTE_UNITS[unit]}`

export function formatBytes(bytes: number): string {
  return inByteUnit(bytes, bytes === 0 ? 0 : byteUnit(bytes))
}

export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3_600)
  const m = Math.floor((seconds % 3_600) / 60)
  if (d > 0) return `${d}d ${h}h ${m}m`
  if (h > 0) return `${h}h ${m}m`
  return m > 0 ? `${m}m` : `${Math.floor(seconds)}s`
}

/** The value as people read it; text statistics (checksums, flags, program output) are shown as they are. */
export function formatStatistic(type: number, value: number | string): string {
  if (typeof value === 'string') return value
  switch (kinds[type] ?? 'plain') {
    case 'percent':
      return `${number(value)} %`
    case 'kilobytes':
      return formatBytes(value * 1024)
    case 'megabytes':
      return formatBytes(value * 1024 * 1024)
    case 'bytes':
      return formatBytes(value)
    case 'bytesPerSecond':
      return `${formatBytes(value)}/s`
    case 'perSecond':
      return `${number(value)}/s`
    case 'seconds':
      return `${number(value * 1000, 3)} ms`
    case 'milliseconds':
      return `${number(value, 3)} ms`
    case 'date':
      return new Date(value * 1000).toLocaleString()
    case 'duration':
      return formatDuration(value)
    case 'days':
      return `${number(value, 0)} days`
    case 'octal':
      return value.toString(8).padStart(4, '0')
    case 'identifier':
      return String(value)
    case 'plain':
      return number(value, 2)
  }
}

/** What a figure's unit is on a chart axis: sizes in any of Monit's units are bytes, times are shown in ms. */
export function axisUnitOf(type: number): string {
  const kind = kinds[type] ?? 'plain'
  if (kind === 'kilobytes' || kind === 'megabytes') return 'bytes'
  return kind === 'seconds' ? 'milliseconds' : kind
}

const bytesIn: Partial<Record<Kind, number>> = { bytes: 1, bytesPerSecond: 1, kilobytes: 1024, megabytes: 1024 * 1024 }

/**
 * A value axis's tick labels, all in one unit: sizes in the unit the largest tick reads best in
 * ("0.5 GB, 1 GB, 1.5 GB", not "512 MB, 1 GB, 1.5 GB"), with the digits ticks between whole units need.
 */
export function formatAxis(type: number, ticks: readonly number[]): string[] {
  const kind = kinds[type] ?? 'plain'
  const factor = bytesIn[kind]
  if (factor === undefined) return ticks.map((v) => formatStatistic(type, v))
  const largest = Math.max(0, ...ticks.map((v) => Math.abs(v * factor)))
  // Two decimals must tell ticks apart: a flat 22.29 GB line's ticks half a MB apart read in MB.
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) * factor : largest
  const unit = largest === 0 ? 0 : Math.min(byteUnit(largest), step === 0 ? Infinity : byteUnit(step * 100))
  return ticks.map((v) => `${inByteUnit(v * factor, unit, 2)}${kind === 'bytesPerSecond' ? '/s' : ''}`)
}

/** Steps between ticks that read as round numbers in any byte unit (0.25, 0.5, 1, 2.5, 5 … of a KB, MB, GB …). */
const byteSteps = [0, 1, 2, 3, 4, 5].flatMap((p) => [1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500].map((m) => m * 1024 ** p))

/** The steps between a value axis's ticks in the figure's own unit, for sizes; undefined: uPlot's decimal steps. */
export function axisSteps(type: number): number[] | undefined {
  const factor = bytesIn[kinds[type] ?? 'plain']
  return factor === undefined ? undefined : byteSteps.map((step) => step / factor).filter((step) => step >= 1 / 1024)
}
