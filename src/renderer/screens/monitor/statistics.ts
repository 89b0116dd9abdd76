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

const names: Partial<Record<number, string>> = {
  [Stat.LoadAverage]: 'Load average',
  [Stat.CpuUser]: 'CPU user',
  [Stat.CpuSystem]: 'CPU system',
  [Stat.CpuWait]: 'CPU wait',
  [Stat.CpuNice]: 'CPU nice',
  [Stat.CpuHardIrq]: 'CPU hard IRQ',
  [Stat.CpuSoftIrq]: 'CPU soft IRQ',
  [Stat.CpuSteal]: 'CPU steal',
  [Stat.CpuGuest]: 'CPU guest',
  [Stat.CpuGuestNice]: 'CPU guest nice',
  [Stat.MemoryPercent]: 'Memory',
  [Stat.MemoryKilobyte]: 'Memory',
  [Stat.SwapPercent]: 'Swap',
  [Stat.SwapKilobyte]: 'Swap',
  [Stat.ProcessCpuPercent]: 'CPU',
  [Stat.ProcessCpuPercentTotal]: 'CPU total',
  [Stat.ProcessMemoryPercent]: 'Memory',
  [Stat.ProcessMemoryPercentTotal]: 'Memory total',
  [Stat.ProcessMemoryKilobyte]: 'Memory',
  [Stat.ProcessMemoryKilobyteTotal]: 'Memory total',
  [Stat.PortResponseTime]: 'Port response time',
  [Stat.UnixSocketResponseTime]: 'Socket response time',
  [Stat.PingResponseTime]: 'Ping response time',
  [Stat.SpacePercent]: 'Space used',
  [Stat.SpaceMegabyte]: 'Space used',
  [Stat.SpaceTotal]: 'Space total',
  [Stat.InodePercent]: 'Inodes used',
  [Stat.InodeCount]: 'Inodes used',
  [Stat.InodeTotal]: 'Inodes total',
  [Stat.ProgramStatus]: 'Exit status',
  [Stat.Pid]: 'PID',
  [Stat.PPid]: 'Parent PID',
  [Stat.Uid]: 'UID',
  [Stat.Gid]: 'GID',
  [Stat.EffectiveUid]: 'Effective UID',
  [Stat.SystemUptime]: 'System uptime',
  [Stat.ProgramOutput]: 'Output',
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

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB']
  let value = bytes
  let unit = 0
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${number(value, unit === 0 ? 0 : 1)} ${units[unit]}`
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

/**
 * Which chart a statistic is drawn in: figures read together share one (CPU parts, read and write
 * rates); identities, limits, timestamps and ever-growing totals are not charted (undefined).
 */
const chartGroups: Partial<Record<number, string>> = {}
const chart = (title: string, ...types: number[]) => {
  for (const t of types) chartGroups[t] = title
}
chart(
  'CPU',
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
)
chart('Memory and swap usage', Stat.MemoryPercent, Stat.SwapPercent, Stat.ProcessMemoryPercent, Stat.ProcessMemoryPercentTotal)
chart('Memory and swap', Stat.MemoryKilobyte, Stat.SwapKilobyte, Stat.ProcessMemoryKilobyte, Stat.ProcessMemoryKilobyteTotal)
chart('Load average', Stat.LoadAverage)
chart('Space and inode usage', Stat.SpacePercent, Stat.InodePercent)
chart('Space', Stat.SpaceMegabyte)
chart('Inodes', Stat.InodeCount)
chart('Response time', Stat.PortResponseTime, Stat.UnixSocketResponseTime, Stat.PingResponseTime)
chart('Network traffic', Stat.NetBytesIn, Stat.NetBytesOut)
chart('Network packets', Stat.NetPacketsIn, Stat.NetPacketsOut)
chart('Network errors', Stat.NetErrorsIn, Stat.NetErrorsOut)
chart(
  'Read and write rates',
  Stat.FilesystemReadBytes,
  Stat.FilesystemWriteBytes,
  Stat.ProcessReadBytes,
  Stat.ProcessWriteBytes,
  Stat.ProcessReadBytesGeneric,
  Stat.ProcessWriteBytesGeneric
)
chart(
  'Read and write operations',
  Stat.FilesystemReadOperations,
  Stat.FilesystemWriteOperations,
  Stat.ProcessReadOperations,
  Stat.ProcessWriteOperations
)
chart(
  'Disk service time',
  Stat.FilesystemServiceTimeRead,
  Stat.FilesystemServiceTimeWrite,
  Stat.FilesystemServiceTimeWait,
  Stat.FilesystemServiceTimeRun,
  Stat.FilesystemServiceTime
)
chart('Children and threads', Stat.Children, Stat.Threads)
chart(
  'File descriptors',
  Stat.SystemFileDescriptorsAllocated,
  Stat.SystemFileDescriptorsUnused,
  Stat.ProcessFileDescriptorsOpen,
  Stat.ProcessFileDescriptorsOpenTotal
)
chart('Size', Stat.Size)
chart('Exit status', Stat.ProgramStatus)
chart('Certificate validity', Stat.CertificateValidDays)

export function chartGroupOf(type: number): string | undefined {
  return chartGroups[type]
}
