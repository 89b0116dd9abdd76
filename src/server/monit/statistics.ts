// Maps the type-specific children of a `<service>` (agent protocol §4.4) to `Statistic`s with the
// `Stat` codes. Elements this module does not know are skipped, so newer agents' additions are harmless.

import { ServiceType, Stat } from '../../shared/codes'
import type { Statistic } from './message'
import { clipped, TEXT_LIMITS, type MessageBudget } from './message-limits'
import { toNumber, type XmlScanner } from './xml-scanner'

/**
 * How the children of a container map to statistics: a leaf maps to one code (or several that
 * share its value), a nested container to its own table. Children not listed are skipped.
 */
type FieldTable = ReadonlyMap<string, FieldEntry>
type FieldEntry = number | readonly number[] | FieldTable

/** A field table written as an object literal. */
interface FieldSpec {
  readonly [child: string]: number | readonly number[] | FieldSpec
}

/** Maps rather than objects: lookups by element name must never reach Object.prototype. */
function fieldTable(spec: FieldSpec): FieldTable {
  return new Map(
    Object.entries(spec).map(([child, entry]): [string, FieldEntry] => [
      child,
      typeof entry === 'number' || isCodeList(entry) ? entry : fieldTable(entry)
    ])
  )
}

function isCodeList(entry: readonly number[] | FieldSpec | FieldTable): entry is readonly number[] {
  return Array.isArray(entry)
}

/** Rates are `count` in I/O blocks and `now` in network blocks. */
const countTotal = (count: number, total: number): FieldSpec => ({ count, now: count, total })

const PROCESS_READ = fieldTable({
  bytes: countTotal(Stat.ProcessReadBytes, Stat.ProcessReadBytesTotal),
  operations: countTotal(Stat.ProcessReadOperations, Stat.ProcessReadOperationsTotal),
  bytesgeneric: countTotal(Stat.ProcessReadBytesGeneric, Stat.ProcessReadBytesGenericTotal)
})
const PROCESS_WRITE = fieldTable({
  bytes: countTotal(Stat.ProcessWriteBytes, Stat.ProcessWriteBytesTotal),
  operations: countTotal(Stat.ProcessWriteOperations, Stat.ProcessWriteOperationsTotal),
  bytesgeneric: countTotal(Stat.ProcessWriteBytesGeneric, Stat.ProcessWriteBytesGenericTotal)
})
const FILESYSTEM_READ = fieldTable({
  bytes: countTotal(Stat.FilesystemReadBytes, Stat.FilesystemReadBytesTotal),
  operations: countTotal(Stat.FilesystemReadOperations, Stat.FilesystemReadOperationsTotal)
})
const FILESYSTEM_WRITE = fieldTable({
  bytes: countTotal(Stat.FilesystemWriteBytes, Stat.FilesystemWriteBytesTotal),
  operations: countTotal(Stat.FilesystemWriteOperations, Stat.FilesystemWriteOperationsTotal)
})

const SYSTEM = fieldTable({
  cpu: {
    user: Stat.CpuUser,
    system: Stat.CpuSystem,
    wait: Stat.CpuWait,
    nice: Stat.CpuNice,
    hardirq: Stat.CpuHardIrq,
    softirq: Stat.CpuSoftIrq,
    steal: Stat.CpuSteal,
    guest: Stat.CpuGuest,
    guestnice: Stat.CpuGuestNice
  },
  memory: { percent: Stat.MemoryPercent, kilobyte: Stat.MemoryKilobyte },
  swap: { percent: Stat.SwapPercent, kilobyte: Stat.SwapKilobyte }
})

/** Service children whose mapping does not depend on the service type. */
const SERVICE = fieldTable({
  pid: Stat.Pid,
  ppid: Stat.PPid,
  uid: Stat.Uid,
  euid: Stat.EffectiveUid,
  gid: Stat.Gid,
  threads: Stat.Threads,
  children: Stat.Children,
  size: Stat.Size,
  hardlink: Stat.Hardlinks,
  memory: {
    percent: Stat.ProcessMemoryPercent,
    percenttotal: Stat.ProcessMemoryPercentTotal,
    kilobyte: Stat.ProcessMemoryKilobyte,
    kilobytetotal: Stat.ProcessMemoryKilobyteTotal
  },
  filedescriptors: {
    allocated: Stat.SystemFileDescriptorsAllocated,
    unused: Stat.SystemFileDescriptorsUnused,
    maximum: Stat.SystemFileDescriptorsMaximum,
    open: Stat.ProcessFileDescriptorsOpen,
    opentotal: Stat.ProcessFileDescriptorsOpenTotal,
    limit: { soft: Stat.ProcessFileDescriptorsLimitSoft, hard: Stat.ProcessFileDescriptorsLimitHard }
  },
  timestamps: {
    access: Stat.TimestampAccess,
    change: Stat.TimestampChange,
    modify: [Stat.TimestampModify, Stat.Timestamp]
  },
  block: { percent: Stat.SpacePercent, usage: Stat.SpaceMegabyte, total: Stat.SpaceTotal },
  inode: { percent: Stat.InodePercent, usage: Stat.InodeCount, total: Stat.InodeTotal },
  servicetime: {
    read: Stat.FilesystemServiceTimeRead,
    write: Stat.FilesystemServiceTimeWrite,
    wait: Stat.FilesystemServiceTimeWait,
    run: Stat.FilesystemServiceTimeRun
  },
  link: {
    state: Stat.NetState,
    speed: Stat.NetSpeed,
    duplex: Stat.NetDuplex,
    download: {
      bytes: countTotal(Stat.NetBytesIn, Stat.NetBytesInTotal),
      packets: countTotal(Stat.NetPacketsIn, Stat.NetPacketsInTotal),
      errors: countTotal(Stat.NetErrorsIn, Stat.NetErrorsInTotal)
    },
    upload: {
      bytes: countTotal(Stat.NetBytesOut, Stat.NetBytesOutTotal),
      packets: countTotal(Stat.NetPacketsOut, Stat.NetPacketsOutTotal),
      errors: countTotal(Stat.NetErrorsOut, Stat.NetErrorsOutTotal)
    }
  }
})

const PROCESS_CPU = fieldTable({ percent: Stat.ProcessCpuPercent, percenttotal: Stat.ProcessCpuPercentTotal })

const LOAD_AVERAGES = new Set(['avg01', 'avg05', 'avg15'])

/** Collects the statistics of one service while its children are scanned. */
export class StatisticsReader {
  readonly statistics: Statistic[] = []
  /** How often each test descriptor has come up in this service. */
  private readonly testsSeen = new Map<string, number>()

  /** `budget` counts the statistics of the whole message, of which this service is a part. */
  constructor(
    private readonly s: XmlScanner,
    private readonly budget: MessageBudget
  ) {}

  /** Reads the service child `tag` just opened; `serviceType` decides where the mapping differs. */
  read(tag: string, serviceType: number): void {
    switch (tag) {
      case 'uptime': {
        // 5.34+ reports the host's uptime in the system service; elsewhere it is the process's.
        const code = serviceType === ServiceType.System ? Stat.SystemUptime : Stat.Uptime
        return this.addNumber(code, this.s.readNumber(tag))
      }
      case 'cpu':
        return this.readProcessCpu()
      case 'read':
        return this.readTable(tag, serviceType === ServiceType.Filesystem ? FILESYSTEM_READ : PROCESS_READ)
      case 'write':
        return this.readTable(tag, serviceType === ServiceType.Filesystem ? FILESYSTEM_WRITE : PROCESS_WRITE)
      case 'mode':
        return this.readMode()
      case 'fstype':
        return this.addText(Stat.FilesystemType, '', this.s.readText(tag))
      case 'fsflags':
        return this.addText(Stat.Flags, '', this.s.readText(tag))
      case 'checksum':
        return this.readChecksum()
      case 'system':
        return this.readSystem()
      case 'program':
        return this.readProgram()
      case 'icmp':
        return this.readIcmp()
      case 'port':
        return this.readPort()
      case 'unix':
        return this.readUnixSocket()
      default:
        return this.readTableEntry(tag, SERVICE.get(tag))
    }
  }

  private readTable(tag: string, table: FieldTable): void {
    for (let child = this.s.nextChild(tag); child !== null; child = this.s.nextChild(tag)) {
      this.readTableEntry(child, table.get(child))
    }
  }

  private readTableEntry(tag: string, entry: FieldEntry | undefined): void {
    if (entry === undefined) return this.s.skip(tag)
    if (typeof entry === 'number') return this.addNumber(entry, this.s.readNumber(tag))
    if (isCodeList(entry)) {
      const value = this.s.readNumber(tag)
      for (const code of entry) this.addNumber(code, value)
      return
    }
    this.readTable(tag, entry)
  }

  /** The process `<cpu>`: -1.0 means "not known yet" on the first sample after a (re)start. */
  private readProcessCpu(): void {
    for (let child = this.s.nextChild('cpu'); child !== null; child = this.s.nextChild('cpu')) {
      const code = PROCESS_CPU.get(child)
      if (typeof code !== 'number') {
        this.s.skip(child)
        continue
      }
      const value = this.s.readNumber(child)
      if (value !== undefined && value >= 0) this.add(code, '', value)
    }
  }

  /** `<mode>` is the octal permission bits as text; keep the text, store the number too. */
  private readMode(): void {
    const text = this.s.readText('mode').trim()
    const value = Number.parseInt(text, 8)
    if (Number.isFinite(value)) this.add(Stat.Mode, '', value, text)
  }

  private readChecksum(): void {
    const algorithm = this.s.attribute('type') ?? ''
    this.addText(Stat.Checksum, algorithm, this.s.readText('checksum').trim())
  }

  private readSystem(): void {
    for (let child = this.s.nextChild('system'); child !== null; child = this.s.nextChild('system')) {
      if (child === 'load') this.readLoad()
      else this.readTableEntry(child, SYSTEM.get(child))
    }
  }

  /** Load averages share one code and are told apart by their element name. */
  private readLoad(): void {
    for (let child = this.s.nextChild('load'); child !== null; child = this.s.nextChild('load')) {
      if (LOAD_AVERAGES.has(child)) this.addNumber(Stat.LoadAverage, this.s.readNumber(child), child)
      else this.s.skip(child)
    }
  }

  private readProgram(): void {
    for (let child = this.s.nextChild('program'); child !== null; child = this.s.nextChild('program')) {
      if (child === 'started') this.addNumber(Stat.ProgramStarted, this.s.readNumber(child))
      else if (child === 'status') this.addNumber(Stat.ProgramStatus, this.s.readNumber(child))
      else if (child === 'output') this.addText(Stat.ProgramOutput, '', this.s.readText(child))
      else this.s.skip(child)
    }
  }

  private readIcmp(): void {
    const fields = this.s.readLeafTexts('icmp')
    const descriptor = this.testDescriptor(Stat.PingResponseTime, fields.get('type') ?? '')
    this.addResponseTime(Stat.PingResponseTime, descriptor, fields.get('responsetime'))
  }

  private readUnixSocket(): void {
    const fields = this.s.readLeafTexts('unix')
    const descriptor = this.testDescriptor(Stat.UnixSocketResponseTime, fields.get('path') ?? '')
    this.addResponseTime(Stat.UnixSocketResponseTime, descriptor, fields.get('responsetime'))
  }

  /** A port test is named like M/Monit does it: `host:port [PROTOCOL/TCP]`. */
  private readPort(): void {
    const fields = new Map<string, string>()
    let validDays: string | undefined
    for (let child = this.s.nextChild('port'); child !== null; child = this.s.nextChild('port')) {
      if (child === 'certificate') validDays = this.s.readLeafTexts(child).get('valid')
      else fields.set(child, this.s.readText(child))
    }
    const field = (name: string): string => fields.get(name) ?? ''
    const descriptor = this.testDescriptor(
      Stat.PortResponseTime,
      `${field('hostname')}:${field('portnumber')} [${field('protocol')}/${field('type')}]`
    )
    this.addResponseTime(Stat.PortResponseTime, descriptor, fields.get('responsetime'))
    if (validDays !== undefined) this.addNumber(Stat.CertificateValidDays, toNumber(validDays), descriptor)
  }

  /** A failed test reports a response time of -1 (§4.4): there is no time to record. */
  private addResponseTime(type: number, descriptor: string, text: string | undefined): void {
    const value = toNumber(text ?? '')
    if (value !== undefined && value >= 0) this.add(type, descriptor, value)
  }

  /**
   * Two tests of a kind can look alike (the same port with another request). The second and later
   * get ` #2`, ` #3`, … in the order the agent lists them, failed ones included, so that a test keeps
   * its descriptor from one message to the next and (type, descriptor) stays unique in the service.
   */
  private testDescriptor(type: number, descriptor: string): string {
    const key = `${type} ${descriptor}`
    const seen = (this.testsSeen.get(key) ?? 0) + 1
    this.testsSeen.set(key, seen)
    return seen === 1 ? descriptor : `${descriptor} #${seen}`
  }

  private addNumber(type: number, value: number | undefined, descriptor = ''): void {
    if (value !== undefined) this.add(type, descriptor, value)
  }

  private addText(type: number, descriptor: string, text: string): void {
    const max = type === Stat.ProgramOutput ? TEXT_LIMITS.output : TEXT_LIMITS.field
    this.add(type, descriptor, 0, clipped(text, max, true))
  }

  private add(type: number, descriptor: string, value: number, text?: string): void {
    this.budget.statistic()
    // One object shape for every statistic (text undefined for numbers): the collector reads each one.
    this.statistics.push({ type, descriptor, value, text })
  }
}
