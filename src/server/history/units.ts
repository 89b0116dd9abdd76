// What the history keeps and charts: every numeric statistic, with the unit the agent reports it in.
import { Stat } from '../../shared/codes'

/** Statistics whose meaning is text (flags, checksum, output, filesystem type, octal mode): not history. */
export const NOT_CHARTED = new Set<number>([Stat.Flags, Stat.Checksum, Stat.ProgramOutput, Stat.FilesystemType, Stat.Mode])

const units: Record<number, string> = {}
const assign = (unit: string, types: readonly number[]) => {
  for (const t of types) units[t] = unit
}

assign('%', [
  Stat.CpuUser,
  Stat.CpuSystem,
  Stat.CpuWait,
  Stat.CpuNice,
  Stat.CpuHardIrq,
  Stat.CpuSoftIrq,
  Stat.CpuSteal,
  Stat.CpuGuest,
  Stat.CpuGuestNice,
  Stat.MemoryPercent,
  Stat.SwapPercent,
  Stat.ProcessCpuPercent,
  Stat.ProcessCpuPercentTotal,
  Stat.ProcessMemoryPercent,
  Stat.ProcessMemoryPercentTotal,
  Stat.SpacePercent,
  Stat.InodePercent
])
assign('KB', [Stat.MemoryKilobyte, Stat.SwapKilobyte, Stat.ProcessMemoryKilobyte, Stat.ProcessMemoryKilobyteTotal])
assign('MB', [Stat.SpaceMegabyte, Stat.SpaceTotal])
assign('s', [Stat.PortResponseTime, Stat.UnixSocketResponseTime, Stat.PingResponseTime, Stat.Uptime, Stat.SystemUptime, Stat.Downtime])
assign('ms', [
  Stat.FilesystemServiceTimeRead,
  Stat.FilesystemServiceTimeWrite,
  Stat.FilesystemServiceTimeWait,
  Stat.FilesystemServiceTimeRun,
  Stat.FilesystemServiceTime
])
assign('B', [
  Stat.Size,
  Stat.NetBytesInTotal,
  Stat.NetBytesOutTotal,
  Stat.FilesystemReadBytesTotal,
  Stat.FilesystemWriteBytesTotal,
  Stat.ProcessReadBytesTotal,
  Stat.ProcessWriteBytesTotal,
  Stat.ProcessReadBytesGenericTotal,
  Stat.ProcessWriteBytesGenericTotal
])
assign('B/s', [
  Stat.NetBytesIn,
  Stat.NetBytesOut,
  Stat.FilesystemReadBytes,
  Stat.FilesystemWriteBytes,
  Stat.ProcessReadBytes,
  Stat.ProcessWriteBytes,
  Stat.ProcessReadBytesGeneric,
  Stat.ProcessWriteBytesGeneric
])
assign('/s', [
  Stat.NetPacketsIn,
  Stat.NetPacketsOut,
  Stat.NetErrorsIn,
  Stat.NetErrorsOut,
  Stat.FilesystemReadOperations,
  Stat.FilesystemWriteOperations,
  Stat.ProcessReadOperations,
  Stat.ProcessWriteOperations
])
assign('Mb/s', [Stat.NetSpeed])
assign('days', [Stat.CertificateValidDays])
assign('unix time', [Stat.Timestamp, Stat.TimestampAccess, Stat.TimestampChange, Stat.TimestampModify, Stat.ProgramStarted])

/** The unit of a statistic type; '' for counts, states and ratios without one (load average, children, …). */
export function unitOf(type: number): string {
  return units[type] ?? ''
}
