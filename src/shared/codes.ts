// Code tables shared by the server and the console (spec: "Shared codes", docs/api-compatibility.md).

export const Led = { Red: 0, Orange: 1, Green: 2, Gray: 3 } as const
export type Led = (typeof Led)[keyof typeof Led]

export const HostStatus = { Active: 0, Inactive: 1, Ignored: 2 } as const
export type HostStatus = (typeof HostStatus)[keyof typeof HostStatus]
export const hostStatusLabel = { 0: 'Active', 1: 'Inactive', 2: 'Ignored' } as const satisfies Record<HostStatus, string>

export const Heartbeat = { Dead: 0, Ok: 1 } as const

/** Monit service types, with the labels Monit itself uses (clients compare `type == "Filesystem"`). */
export const serviceTypeLabels = [
  'Filesystem',
  'Directory',
  'File',
  'Process',
  'Remote Host',
  'System',
  'Fifo',
  'Program',
  'Network'
] as const
export const ServiceType = {
  Filesystem: 0,
  Directory: 1,
  File: 2,
  Process: 3,
  RemoteHost: 4,
  System: 5,
  Fifo: 6,
  Program: 7,
  Network: 8
} as const

/** Bits of Monit's `<monitor>` element. */
export const MonitorState = { Off: 0, On: 1, Initializing: 2, Waiting: 4 } as const

/** Event states as Monit posts them; 4 ("changed not") is stored raw and filtered as success. */
export const EventState = { Succeeded: 0, Failed: 1, Changed: 2, ChangedNot: 4 } as const

/** Monit's `pendingaction` / event `<action>` values. */
export const actionLabels = ['ignore', 'alert', 'restart', 'stop', 'exec', 'unmonitor', 'start', 'monitor'] as const

/** Event classes: the bit values of Monit's `<status>` and `<event><id>`, with failed / succeeded texts. */
export interface EventClass {
  id: number
  name: string
  failed: string
  succeeded: string
  changed?: string
  changedNot?: string
}
export const eventClasses: readonly EventClass[] = [
  {
    id: 1,
    name: 'Checksum',
    failed: 'Checksum failed',
    succeeded: 'Checksum succeeded',
    changed: 'Checksum changed',
    changedNot: 'Checksum not changed'
  },
  { id: 2, name: 'Resource', failed: 'Resource limit matched', succeeded: 'Resource limit succeeded' },
  { id: 4, name: 'Timeout', failed: 'Timeout', succeeded: 'Timeout recovery' },
  {
    id: 8,
    name: 'Timestamp',
    failed: 'Timestamp failed',
    succeeded: 'Timestamp succeeded',
    changed: 'Timestamp changed',
    changedNot: 'Timestamp not changed'
  },
  { id: 16, name: 'Size', failed: 'Size failed', succeeded: 'Size succeeded', changed: 'Size changed', changedNot: 'Size not changed' },
  { id: 32, name: 'Connection', failed: 'Connection failed', succeeded: 'Connection succeeded' },
  { id: 64, name: 'Permission', failed: 'Permission failed', succeeded: 'Permission succeeded' },
  { id: 128, name: 'UID', failed: 'UID failed', succeeded: 'UID succeeded' },
  { id: 256, name: 'GID', failed: 'GID failed', succeeded: 'GID succeeded' },
  { id: 512, name: 'Nonexist', failed: 'Does not exist', succeeded: 'Exists' },
  { id: 1024, name: 'Invalid', failed: 'Invalid type', succeeded: 'Type succeeded' },
  { id: 2048, name: 'Data', failed: 'Data access error', succeeded: 'Data access succeeded' },
  { id: 4096, name: 'Exec', failed: 'Execution failed', succeeded: 'Execution succeeded' },
  {
    id: 8192,
    name: 'Fsflags',
    failed: 'Filesystem flags failed',
    succeeded: 'Filesystem flags succeeded',
    changed: 'Filesystem flags changed',
    changedNot: 'Filesystem flags not changed'
  },
  { id: 16384, name: 'Icmp', failed: 'ICMP failed', succeeded: 'ICMP succeeded' },
  {
    id: 32768,
    name: 'Content',
    failed: 'Content failed',
    succeeded: 'Content succeeded',
    changed: 'Content match',
    changedNot: "Content doesn't match"
  },
  {
    id: 65536,
    name: 'Instance',
    failed: 'Monit instance failed',
    succeeded: 'Monit instance succeeded',
    changed: 'Monit instance changed',
    changedNot: 'Monit instance not changed'
  },
  {
    id: 131072,
    name: 'Action',
    failed: 'Action failed',
    succeeded: 'Action succeeded',
    changed: 'Action done',
    changedNot: 'Action not done'
  },
  { id: 262144, name: 'PID', failed: 'PID failed', succeeded: 'PID succeeded', changed: 'PID changed', changedNot: 'PID not changed' },
  { id: 524288, name: 'PPID', failed: 'PPID failed', succeeded: 'PPID succeeded', changed: 'PPID changed', changedNot: 'PPID not changed' },
  { id: 1048576, name: 'Heartbeat', failed: 'Heartbeat failed', succeeded: 'Heartbeat succeeded' },
  {
    id: 2097152,
    name: 'Status',
    failed: 'Status failed',
    succeeded: 'Status succeeded',
    changed: 'Status changed',
    changedNot: 'Status not changed'
  },
  {
    id: 4194304,
    name: 'Uptime',
    failed: 'Uptime failed',
    succeeded: 'Uptime succeeded',
    changed: 'Uptime changed',
    changedNot: 'Uptime not changed'
  },
  { id: 8388608, name: 'Link', failed: 'Link down', succeeded: 'Link up' },
  { id: 16777216, name: 'Speed', failed: 'Speed failed', succeeded: 'Speed ok', changed: 'Speed changed', changedNot: 'Speed not changed' },
  { id: 33554432, name: 'Saturation', failed: 'Saturation exceeded', succeeded: 'Saturation ok' },
  { id: 67108864, name: 'ByteIn', failed: 'Download bytes exceeded', succeeded: 'Download bytes ok' },
  { id: 134217728, name: 'ByteOut', failed: 'Upload bytes exceeded', succeeded: 'Upload bytes ok' },
  { id: 268435456, name: 'PacketIn', failed: 'Download packets exceeded', succeeded: 'Download packets ok' },
  { id: 536870912, name: 'PacketOut', failed: 'Upload packets exceeded', succeeded: 'Upload packets ok' },
  { id: 1073741824, name: 'Exist', failed: 'Does exist', succeeded: 'Exists not' },
  { id: 2147483648, name: 'Forecast', failed: 'Running out', succeeded: 'Not running out' }
]
/**
 * Forecast is ours (issue 30 §3): a resource reaching 100 % within the forecast horizon at its trend. Monit's
 * classes take every bit below 2^31, so it is 2^31; bitmaps holding it are summed, never OR-ed (JavaScript's
 * `|` is 32-bit signed).
 */
export const EventClassId = { Instance: 65536, Action: 131072, Heartbeat: 1048576, Forecast: 2_147_483_648 } as const

/** Role permission bits. */
export const Permission = { Collector: 1, View: 2, ServiceActions: 4 } as const

/**
 * Statistic type codes. 0–78 are M/Monit's (api/2 list); 1000 and up are ours, for figures Monit
 * sends that M/Monit has no code for (compat 6.2: new ids from 1000 up, published in the map).
 */
export const Stat = {
  LoadAverage: 0,
  CpuUser: 1,
  CpuSystem: 2,
  CpuWait: 3,
  MemoryPercent: 4,
  MemoryKilobyte: 5,
  SwapPercent: 6,
  SwapKilobyte: 7,
  ProcessCpuPercent: 8,
  ProcessCpuPercentTotal: 9,
  ProcessMemoryPercent: 10,
  ProcessMemoryPercentTotal: 11,
  ProcessMemoryKilobyte: 12,
  ProcessMemoryKilobyteTotal: 13,
  Children: 14,
  PortResponseTime: 15,
  UnixSocketResponseTime: 16,
  PingResponseTime: 17,
  SpacePercent: 18,
  SpaceMegabyte: 19,
  SpaceTotal: 20,
  InodePercent: 21,
  InodeCount: 22,
  InodeTotal: 23,
  ProgramStatus: 24,
  Flags: 25,
  Mode: 26,
  Uid: 27,
  Gid: 28,
  Size: 29,
  Pid: 30,
  PPid: 31,
  Checksum: 32,
  Timestamp: 33,
  Uptime: 34,
  ProgramOutput: 35,
  NetState: 36,
  NetSpeed: 37,
  NetDuplex: 38,
  NetBytesIn: 39,
  NetBytesInTotal: 40,
  NetPacketsIn: 41,
  NetPacketsInTotal: 42,
  NetErrorsIn: 43,
  NetErrorsInTotal: 44,
  NetBytesOut: 45,
  NetBytesOutTotal: 46,
  NetPacketsOut: 47,
  NetPacketsOutTotal: 48,
  NetErrorsOut: 49,
  NetErrorsOutTotal: 50,
  Downtime: 51,
  Threads: 52,
  FilesystemType: 53,
  FilesystemReadBytes: 54,
  FilesystemReadBytesTotal: 55,
  FilesystemReadOperations: 56,
  FilesystemReadOperationsTotal: 57,
  FilesystemWriteBytes: 58,
  FilesystemWriteBytesTotal: 59,
  FilesystemWriteOperations: 60,
  FilesystemWriteOperationsTotal: 61,
  FilesystemServiceTimeRead: 62,
  FilesystemServiceTimeWrite: 63,
  FilesystemServiceTimeWait: 64,
  FilesystemServiceTimeRun: 65,
  FilesystemServiceTime: 66,
  ProcessReadBytes: 67,
  ProcessReadBytesTotal: 68,
  ProcessReadOperations: 69,
  ProcessReadOperationsTotal: 70,
  ProcessWriteBytes: 71,
  ProcessWriteBytesTotal: 72,
  ProcessWriteOperations: 73,
  ProcessWriteOperationsTotal: 74,
  CertificateValidDays: 75,
  TimestampAccess: 76,
  TimestampChange: 77,
  TimestampModify: 78,
  // Ours (>= 1000)
  CpuNice: 1000,
  CpuHardIrq: 1001,
  CpuSoftIrq: 1002,
  CpuSteal: 1003,
  CpuGuest: 1004,
  CpuGuestNice: 1005,
  SystemFileDescriptorsAllocated: 1006,
  SystemFileDescriptorsUnused: 1007,
  SystemFileDescriptorsMaximum: 1008,
  ProcessFileDescriptorsOpen: 1009,
  ProcessFileDescriptorsOpenTotal: 1010,
  ProcessFileDescriptorsLimitSoft: 1011,
  ProcessFileDescriptorsLimitHard: 1012,
  ProcessReadBytesGeneric: 1013,
  ProcessReadBytesGenericTotal: 1014,
  ProcessWriteBytesGeneric: 1015,
  ProcessWriteBytesGenericTotal: 1016,
  ProgramStarted: 1017,
  EffectiveUid: 1018,
  SystemUptime: 1019,
  Hardlinks: 1020
} as const

/** Names for `map/id/statisticstype`, derived from the table above. */
export const statisticTypeNames: Record<number, string> = Object.fromEntries(Object.entries(Stat).map(([name, id]) => [id, name]))
