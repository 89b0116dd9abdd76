import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { Stat } from '../../../src/shared/codes'
import type { MonitMessage, ServiceSnapshot, Statistic } from '../../../src/server/monit/message'
import { MAX_HOST_GROUPS, TEXT_LIMITS } from '../../../src/server/monit/message-limits'
import { MessageParseError, parseMonitMessage } from '../../../src/server/monit/parse-message'
import { HOSTILE_SHAPES, randomNoise, spaces, type HostileShape } from '../../../bench/hostile-messages'

const FIXTURES = path.resolve(__dirname, '../../fixtures/monit')
const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name))
const parseFixture = (name: string): MonitMessage => parseMonitMessage(fixture(name))
const xmlFixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.xml'))
  .sort()

function service(message: MonitMessage, name: string): ServiceSnapshot {
  const found = message.services.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no service ${name}`)
  return found
}

function statistic(s: ServiceSnapshot, type: number, descriptor = ''): Statistic | undefined {
  return s.statistics.find((st) => st.type === type && st.descriptor === descriptor)
}

const valueOf = (s: ServiceSnapshot, type: number, descriptor = ''): number | undefined => statistic(s, type, descriptor)?.value

interface MessageParts {
  server?: string
  beforeServices?: string
  serviceGroups?: string
  extra?: string
}

/** A small v2 message around `services`; `extra` goes after `<servicegroups>` (e.g. an event). */
function message(services: string, options: MessageParts = {}): Buffer {
  const server =
    options.server ??
    '<uptime>1</uptime><poll>5</poll><startdelay>0</startdelay><localhostname>host</localhostname>' +
      '<controlfile>/etc/monitrc</controlfile>'
  return Buffer.from(
    '<?xml version="1.0" encoding="ISO-8859-1"?><monit id="abc123" incarnation="1700000000" version="5.33.0">' +
      `<server>${server}</server><platform><name>Linux</name><cpu>2</cpu></platform>` +
      `${options.beforeServices ?? ''}<services>${services}</services>` +
      `<servicegroups>${options.serviceGroups ?? ''}</servicegroups>` +
      `${options.extra ?? ''}</monit>`,
    'utf8'
  )
}

const COMMON =
  '<collected_sec>1700000001</collected_sec><collected_usec>5</collected_usec><status>0</status>' +
  '<status_hint>0</status_hint><monitor>1</monitor><monitormode>0</monitormode><onreboot>0</onreboot>' +
  '<pendingaction>0</pendingaction>'

const serviceXml = (name: string, type: number, body: string): string =>
  `<service name="${name}"><type>${type}</type>${COMMON}${body}</service>`

function parseError(body: Buffer): MessageParseError {
  try {
    parseMonitMessage(body)
  } catch (error) {
    if (error instanceof MessageParseError) return error
    throw error
  }
  throw new Error('parsed without error')
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function expectAllNumbersFinite(m: MonitMessage): void {
  const numbers = [
    m.agent.incarnation,
    m.server.uptime,
    m.server.poll,
    m.server.startDelay,
    m.platform.cpu,
    m.platform.memory,
    m.platform.swap,
    ...m.services.flatMap((s) => [
      s.type,
      s.collectedSec,
      s.collectedUsec,
      s.status,
      s.statusHint,
      s.monitor,
      s.monitorMode,
      s.onReboot,
      s.pendingAction,
      ...s.statistics.map((st) => st.value)
    ])
  ]
  expect(numbers.filter((n) => !Number.isFinite(n))).toEqual([])
}

describe('parseMonitMessage: captured Monit 5.33 payloads (and 14, written)', () => {
  it.each(xmlFixtures)('parses %s', (name) => {
    const m = parseFixture(name)
    expect(m.agent.id).toMatch(/^[0-9a-f]{32}$/)
    expect(m.services.map((s) => s.name)).toEqual([
      expect.stringMatching(/^agent[12]-host$/),
      'sleeper',
      'labfile',
      'labdir',
      'rootfs',
      'labfifo',
      'labprog',
      'truecheck',
      'lohost',
      'deadport',
      'loopback'
    ])
    expectAllNumbersFinite(m)
  })

  it.each(xmlFixtures)('gives each statistic of %s a distinct (type, descriptor) within its service', (name) => {
    for (const s of parseFixture(name).services) {
      const keys = s.statistics.map((st) => `${st.type}/${st.descriptor}`)
      expect(new Set(keys).size).toBe(keys.length)
    }
  })

  describe('02, a heartbeat with every service type populated', () => {
    const m = parseFixture('02-status-heartbeat.xml')

    it('reads the envelope, server and platform', () => {
      expect(m.agent).toEqual({ id: '39900374079c371b7380946708ce1e29', incarnation: 1795300230, version: '5.33.0' })
      expect(m.server).toEqual({
        uptime: 80,
        poll: 5,
        startDelay: 0,
        localHostname: 'agent1-host',
        controlFile: '/etc/monit/monitrc',
        httpd: { address: '127.0.0.1', port: 2812, ssl: false },
        credentials: { username: 'admin', password: 'adminpw' }
      })
      expect(m.platform).toEqual({
        name: 'Linux',
        release: '6.18.44-fc-v669',
        version: '#1 SMP PREEMPT_DYNAMIC @0',
        machine: 'x86_64',
        cpu: 2,
        memory: 24731700,
        swap: 0
      })
      expect(m.hostGroups).toEqual([])
      expect(m.event).toBeUndefined()
      expect(m.serviceGroups).toEqual([{ name: 'lab', services: ['sleeper', 'labfile', 'labprog'] }])
    })

    it('reads the common service fields', () => {
      expect(m.services.map((s) => s.type)).toEqual([5, 3, 2, 1, 0, 6, 7, 7, 4, 4, 8])
      expect(service(m, 'deadport').status).toBe(32)
      expect(service(m, 'labfile')).toMatchObject({ status: 0, statusHint: 1 })
      expect(service(m, 'sleeper')).toMatchObject({
        collectedSec: 1795300306,
        collectedUsec: 591387,
        monitor: 1,
        monitorMode: 0,
        onReboot: 0,
        pendingAction: 0
      })
      expect(m.services.every((s) => s.every === undefined)).toBe(true)
    })

    it('maps the system service', () => {
      const system = service(m, 'agent1-host')
      expect(valueOf(system, Stat.LoadAverage, 'avg01')).toBe(0.95)
      expect(valueOf(system, Stat.LoadAverage, 'avg05')).toBe(0.5)
      expect(valueOf(system, Stat.LoadAverage, 'avg15')).toBe(0.2)
      expect(valueOf(system, Stat.CpuUser)).toBe(43.9)
      expect(valueOf(system, Stat.CpuSystem)).toBe(3)
      expect(valueOf(system, Stat.CpuWait)).toBe(4.3)
      expect(valueOf(system, Stat.CpuSoftIrq)).toBe(0.2)
      for (const code of [Stat.CpuNice, Stat.CpuHardIrq, Stat.CpuSteal, Stat.CpuGuest, Stat.CpuGuestNice]) {
        expect(valueOf(system, code)).toBe(0)
      }
      expect(valueOf(system, Stat.MemoryPercent)).toBe(3.3)
      expect(valueOf(system, Stat.MemoryKilobyte)).toBe(804332)
      expect(valueOf(system, Stat.SwapPercent)).toBe(0)
      expect(valueOf(system, Stat.SwapKilobyte)).toBe(0)
      expect(valueOf(system, Stat.SystemFileDescriptorsAllocated)).toBe(664)
      expect(valueOf(system, Stat.SystemFileDescriptorsUnused)).toBe(0)
      expect(valueOf(system, Stat.SystemFileDescriptorsMaximum)).toBe(2470932)
      expect(system.statistics).toHaveLength(19)
    })

    it('maps the process service', () => {
      const sleeper = service(m, 'sleeper')
      const expected: Array<[number, number]> = [
        [Stat.Pid, 8382],
        [Stat.PPid, 1],
        [Stat.Uid, 0],
        [Stat.EffectiveUid, 0],
        [Stat.Gid, 0],
        [Stat.Uptime, 30],
        [Stat.Threads, 1],
        [Stat.Children, 0],
        [Stat.ProcessMemoryPercent, 0],
        [Stat.ProcessMemoryPercentTotal, 0],
        [Stat.ProcessMemoryKilobyte, 1640],
        [Stat.ProcessMemoryKilobyteTotal, 1640],
        [Stat.ProcessCpuPercent, 0],
        [Stat.ProcessCpuPercentTotal, 0],
        [Stat.ProcessFileDescriptorsOpen, 3],
        [Stat.ProcessFileDescriptorsOpenTotal, 3],
        [Stat.ProcessFileDescriptorsLimitSoft, 20000],
        [Stat.ProcessFileDescriptorsLimitHard, 20000],
        [Stat.ProcessReadBytesGeneric, 0],
        [Stat.ProcessReadBytesGenericTotal, 13952],
        [Stat.ProcessReadBytes, 0],
        [Stat.ProcessReadBytesTotal, 0],
        [Stat.ProcessReadOperations, 0],
        [Stat.ProcessReadOperationsTotal, 20],
        [Stat.ProcessWriteBytesGeneric, 0],
        [Stat.ProcessWriteBytesGenericTotal, 0],
        [Stat.ProcessWriteBytes, 0],
        [Stat.ProcessWriteBytesTotal, 0],
        [Stat.ProcessWriteOperations, 0],
        [Stat.ProcessWriteOperationsTotal, 0]
      ]
      expect(sleeper.statistics).toEqual(expected.map(([type, value]) => ({ type, descriptor: '', value })))
    })

    it('maps the file service, with mode, timestamps and checksum', () => {
      expect(service(m, 'labfile').statistics).toEqual([
        { type: Stat.Mode, descriptor: '', value: 0o644, text: '644' },
        { type: Stat.Uid, descriptor: '', value: 0 },
        { type: Stat.Gid, descriptor: '', value: 0 },
        { type: Stat.TimestampAccess, descriptor: '', value: 1795300281 },
        { type: Stat.TimestampChange, descriptor: '', value: 1795300281 },
        { type: Stat.TimestampModify, descriptor: '', value: 1795300281 },
        { type: Stat.Timestamp, descriptor: '', value: 1795300281 },
        { type: Stat.Size, descriptor: '', value: 14 },
        { type: Stat.Checksum, descriptor: 'MD5', value: 0, text: '7a82895b34cc2432272f08d29f14d4f8' }
      ])
    })

    it('maps the directory and fifo services', () => {
      for (const [name, mode] of [
        ['labdir', 0o755],
        ['labfifo', 0o644]
      ] as const) {
        const s = service(m, name)
        expect(valueOf(s, Stat.Mode)).toBe(mode)
        expect(valueOf(s, Stat.TimestampModify)).toBe(1795300223)
        expect(valueOf(s, Stat.Timestamp)).toBe(1795300223)
        expect(s.statistics).toHaveLength(7)
      }
    })

    it('maps the filesystem service', () => {
      const rootfs = service(m, 'rootfs')
      expect(statistic(rootfs, Stat.FilesystemType)).toEqual({ type: Stat.FilesystemType, descriptor: '', value: 0, text: 'ext4' })
      expect(statistic(rootfs, Stat.Flags)?.text).toBe('rw,relatime,discard,resv_strict,resuid=65534,resgid=65534')
      expect(statistic(rootfs, Stat.Mode)?.text).toBe('755')
      expect(valueOf(rootfs, Stat.SpacePercent)).toBe(8.8)
      expect(valueOf(rootfs, Stat.SpaceMegabyte)).toBe(22827.8)
      expect(valueOf(rootfs, Stat.SpaceTotal)).toBe(258019.6)
      expect(valueOf(rootfs, Stat.InodePercent)).toBe(2.5)
      expect(valueOf(rootfs, Stat.InodeCount)).toBe(426779)
      expect(valueOf(rootfs, Stat.InodeTotal)).toBe(16777216)
      expect(valueOf(rootfs, Stat.FilesystemReadBytes)).toBe(33626575)
      expect(valueOf(rootfs, Stat.FilesystemReadBytesTotal)).toBe(640328704)
      expect(valueOf(rootfs, Stat.FilesystemReadOperations)).toBe(85)
      expect(valueOf(rootfs, Stat.FilesystemReadOperationsTotal)).toBe(25814)
      expect(valueOf(rootfs, Stat.FilesystemWriteBytes)).toBe(890435)
      expect(valueOf(rootfs, Stat.FilesystemWriteBytesTotal)).toBe(957464576)
      expect(valueOf(rootfs, Stat.FilesystemWriteOperations)).toBe(8)
      expect(valueOf(rootfs, Stat.FilesystemWriteOperationsTotal)).toBe(3407)
      expect(valueOf(rootfs, Stat.FilesystemServiceTimeRead)).toBe(244.715)
      expect(valueOf(rootfs, Stat.FilesystemServiceTimeWrite)).toBe(3.989)
      expect(statistic(rootfs, Stat.FilesystemServiceTimeWait)).toBeUndefined()
      expect(statistic(rootfs, Stat.ProcessReadBytes)).toBeUndefined()
    })

    it('maps the program services', () => {
      expect(service(m, 'labprog').statistics).toEqual([
        { type: Stat.ProgramStarted, descriptor: '', value: 1795300306 },
        { type: Stat.ProgramStatus, descriptor: '', value: 0 },
        { type: Stat.ProgramOutput, descriptor: '', value: 0, text: 'labprog says hello at 1795300301' }
      ])
      expect(statistic(service(m, 'truecheck'), Stat.ProgramOutput)?.text).toBe('')
    })

    it('maps ping and port tests, and skips a failed one', () => {
      expect(service(m, 'lohost').statistics).toEqual([
        { type: Stat.PingResponseTime, descriptor: 'Ping', value: 0.000032 },
        { type: Stat.PortResponseTime, descriptor: '127.0.0.1:2812 [DEFAULT/TCP]', value: 0.00005 }
      ])
      expect(service(m, 'deadport').statistics).toEqual([])
    })

    it('maps the network service', () => {
      const loopback = service(m, 'loopback')
      expect(valueOf(loopback, Stat.NetState)).toBe(1)
      expect(valueOf(loopback, Stat.NetSpeed)).toBe(-1)
      expect(valueOf(loopback, Stat.NetDuplex)).toBe(-1)
      expect(valueOf(loopback, Stat.NetBytesIn)).toBe(3463)
      expect(valueOf(loopback, Stat.NetBytesInTotal)).toBe(213757)
      expect(valueOf(loopback, Stat.NetPacketsIn)).toBe(6)
      expect(valueOf(loopback, Stat.NetPacketsInTotal)).toBe(487)
      expect(valueOf(loopback, Stat.NetErrorsIn)).toBe(0)
      expect(valueOf(loopback, Stat.NetErrorsInTotal)).toBe(0)
      expect(valueOf(loopback, Stat.NetBytesOut)).toBe(3463)
      expect(valueOf(loopback, Stat.NetBytesOutTotal)).toBe(213757)
      expect(valueOf(loopback, Stat.NetPacketsOutTotal)).toBe(487)
      expect(valueOf(loopback, Stat.NetErrorsOutTotal)).toBe(0)
      expect(loopback.statistics).toHaveLength(15)
    })
  })

  it('01: every service is initializing and carries no statistics; the event is the agent start', () => {
    const m = parseFixture('01-event-monit-started.xml')
    expect(m.services).toHaveLength(11)
    expect(m.services.every((s) => s.monitor === 2 && s.statistics.length === 0)).toBe(true)
    expect(m.event).toEqual({
      collectedSec: 1795300230,
      collectedUsec: 945884,
      service: 'Monit',
      serviceType: 5,
      id: 65536,
      state: 2,
      action: 6,
      message: 'Monit 5.33.0 started'
    })
  })

  it.each([
    ['03-event-process-not-running.xml', 'sleeper', 3, 512, 1, 2, 'process is not running'],
    ['04-event-action-done-stop.xml', 'sleeper', 3, 131072, 2, 1, 'stop action done'],
    ['05-event-monit-stopped.xml', 'Monit', 5, 65536, 2, 3, 'Monit 5.33.0 stopped'],
    ['06-event-monit-started-after-restart.xml', 'Monit', 5, 65536, 2, 6, 'Monit 5.33.0 started'],
    ['08-event-monit-reloaded.xml', 'Monit', 5, 65536, 2, 6, 'Monit reloaded'],
    ['09-event-agent2-started-no-credentials.xml', 'Monit', 5, 65536, 2, 6, 'Monit 5.33.0 started'],
    ['10-event-replayed-from-queue.xml', 'sleeper', 3, 512, 1, 2, 'process is not running'],
    ['11-event-checksum-changed.xml', 'labfile', 2, 1, 2, 1, 'checksum changed to 7a82895b34cc2432272f08d29f14d4f8'],
    ['12-event-program-status-failed.xml', 'labprog', 7, 2097152, 1, 1, 'status failed (3) -- labprog says hello at 1795300291']
  ])('%s: event (%s, %i, %i, %i, %i) "%s"', (name, serviceName, serviceType, id, state, action, text) => {
    expect(parseFixture(name).event).toMatchObject({ service: serviceName, serviceType, id, state, action, message: text })
  })

  it('03: the failing process has status 512 and no statistics', () => {
    const sleeper = service(parseFixture('03-event-process-not-running.xml'), 'sleeper')
    expect(sleeper.status).toBe(512)
    expect(sleeper.statistics).toEqual([])
  })

  it('04: the stopped process is no longer monitored', () => {
    expect(service(parseFixture('04-event-action-done-stop.xml'), 'sleeper').monitor).toBe(0)
  })

  it("05, 06 and 08 carry the incarnations of the agent's lifecycle", () => {
    expect(parseFixture('05-event-monit-stopped.xml').agent.incarnation).toBe(1795300458)
    expect(parseFixture('06-event-monit-started-after-restart.xml').agent.incarnation).toBe(1795300472)
    expect(parseFixture('08-event-monit-reloaded.xml').agent.incarnation).toBe(1795300458)
  })

  it('10: a replayed event keeps its original time', () => {
    expect(parseFixture('10-event-replayed-from-queue.xml').event).toMatchObject({ collectedSec: 1795300390, collectedUsec: 182762 })
  })

  it('07: the gzip body on the wire parses like the decoded XML', () => {
    const fromWire = parseMonitMessage(gunzipSync(fixture('07-status-gzip.body.gz')))
    expect(fromWire).toEqual(parseFixture('07-status-gzip.xml'))
    expect(fromWire.agent.incarnation).toBe(1795300472)
  })

  it('09: httpd without credentials', () => {
    const m = parseFixture('09-event-agent2-started-no-credentials.xml')
    expect(m.agent.id).toBe('52f8e433d90c74acfca9e2891ec45156')
    expect(m.server.httpd).toEqual({ address: '127.0.0.1', port: 2813, ssl: false })
    expect(m.server.credentials).toBeUndefined()
    expect(m.server.unixSocket).toBeUndefined()
  })

  it('13: not well-formed program output is kept without its control characters', () => {
    const m = parseFixture('13-status-invalid-xml-control-chars.xml')
    const output = statistic(service(m, 'labprog'), Stat.ProgramOutput)?.text ?? ''
    expect(output).toBe('labprog says hello at 1795300599\ncolour [31mred[0m & <tag> ]]> end')
    expect(output).not.toContain('\x1b')
    expect(service(m, 'truecheck').statistics).toHaveLength(3)
    expect(m.serviceGroups).toEqual([{ name: 'lab', services: ['sleeper', 'labfile', 'labprog'] }])
  })

  it('14 (written from §4.1: 5.33 cannot send it): the host groups of a 5.34 agent, the rest as 02', () => {
    const m = parseFixture('14-status-hostgroups.xml')
    const heartbeat = parseFixture('02-status-heartbeat.xml')
    expect(m.agent.version).toBe('5.34.0')
    expect(m.hostGroups).toEqual(['Oslo', 'Databases & <backups>'])
    expect(m.hostGroupsLeftOut).toBe(0)
    expect({ ...m, agent: heartbeat.agent, hostGroups: [] }).toEqual(heartbeat)
  })
})

describe('parseMonitMessage: <hostgroups> (5.34+, agent protocol §4.1)', () => {
  const groups = (names: string[]) =>
    message('', { beforeServices: `<hostgroups>${names.map((n) => `<name>${n}</name>`).join('')}</hostgroups>` })

  it('trims names, drops empty ones and repeats, and ignores other elements', () => {
    const m = parseMonitMessage(
      message('', { beforeServices: '<hostgroups><name> Oslo </name><name></name><x>y</x><name>Oslo</name><name>B</name></hostgroups>' })
    )
    expect(m.hostGroups).toEqual(['Oslo', 'B'])
    expect(m.hostGroupsLeftOut).toBe(0)
  })

  it(`keeps the first ${MAX_HOST_GROUPS} and counts the rest, so a hostile agent cannot create groups without bound`, () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `g${i}`)
    const m = parseMonitMessage(groups(names))
    expect(m.hostGroups).toEqual(names.slice(0, MAX_HOST_GROUPS))
    expect(m.hostGroupsLeftOut).toBe(10_000 - MAX_HOST_GROUPS)
  })

  it(`cuts a name at ${TEXT_LIMITS.name} characters`, () => {
    expect(parseMonitMessage(groups(['x'.repeat(10_000)])).hostGroups).toEqual(['x'.repeat(TEXT_LIMITS.name)])
  })
})

describe('parseMonitMessage: leniency (agent protocol §4.9)', () => {
  it('keeps unescaped &, < and " in a service name, in the attribute and in the event', () => {
    const name = 'a&b<c"d'
    const m = parseMonitMessage(
      message(serviceXml(name, 3, '<pid>42</pid>'), {
        extra:
          `<event><collected_sec>1</collected_sec><collected_usec>2</collected_usec><service>${name}</service>` +
          '<type>3</type><id>512</id><state>1</state><action>2</action><message><![CDATA[gone]]></message></event>'
      })
    )
    expect(m.services.map((s) => s.name)).toEqual([name])
    expect(valueOf(m.services[0], Stat.Pid)).toBe(42)
    expect(m.event?.service).toBe(name)
  })

  it('keeps unescaped characters in the host name, paths, credentials, flags and group members', () => {
    const m = parseMonitMessage(
      Buffer.from(
        '<monit id="x1"><server><localhostname>h<1>&x</localhostname><controlfile>/etc/a&b"c</controlfile>' +
          '<httpd><address>10.0.0.1</address><port>2812</port><ssl>1</ssl></httpd>' +
          '<credentials><username>ad&min</username><password>p<a>ss"w&amp;rd</password></credentials></server>' +
          '<services>' +
          serviceXml('fs', 0, '<fstype>ext4</fstype><fsflags>rw,x=<a&b></fsflags>') +
          '</services>' +
          '<servicegroups><servicegroup name="g&<1>"><service>fs</service><service>a<b</service></servicegroup></servicegroups></monit>'
      )
    )
    expect(m.server.localHostname).toBe('h<1>&x')
    expect(m.server.controlFile).toBe('/etc/a&b"c')
    expect(m.server.httpd).toEqual({ address: '10.0.0.1', port: 2812, ssl: true })
    expect(m.server.credentials).toEqual({ username: 'ad&min', password: 'p<a>ss"w&rd' })
    expect(statistic(m.services[0], Stat.Flags)?.text).toBe('rw,x=<a&b>')
    expect(m.serviceGroups).toEqual([{ name: 'g&<1>', services: ['fs', 'a<b'] }])
  })

  it('cuts overlong text to its limit rather than storing it or refusing the message', () => {
    const long = (n: number) => 'x'.repeat(n)
    const m = parseMonitMessage(
      message(serviceXml(long(300), 7, `<program><started>1</started><status>1</status><output>${long(100_000)}</output></program>`), {
        server: `<localhostname>${long(5000)}</localhostname><controlfile>${long(5000)}</controlfile>`,
        serviceGroups: `<servicegroup name="${long(400)}"><service>${long(300)}</service></servicegroup>`,
        extra:
          `<event><collected_sec>1</collected_sec><collected_usec>2</collected_usec><service>${long(300)}</service>` +
          `<type>7</type><id>512</id><state>1</state><action>2</action><message>${long(1_000_000)}</message></event>`
      })
    )
    const name = long(TEXT_LIMITS.name)
    expect([m.server.localHostname, m.services[0].name, m.event?.service, m.serviceGroups]).toEqual([
      name,
      name,
      name,
      [{ name, services: [name] }]
    ])
    expect(m.server.controlFile).toHaveLength(TEXT_LIMITS.field)
    expect(m.event?.message).toBe(`${long(TEXT_LIMITS.message - 1)}…`)
    expect(statistic(m.services[0], Stat.ProgramOutput)?.text).toBe(`${long(TEXT_LIMITS.output - 1)}…`)
  })

  it('decodes ISO-8859-1 bytes when the body is not valid UTF-8', () => {
    const body = Buffer.concat([
      Buffer.from('<monit id="x1"><server><localhostname>caf'),
      Buffer.from([0xe9]),
      Buffer.from('</localhostname></server><services></services></monit>')
    ])
    expect(parseMonitMessage(body).server.localHostname).toBe('café')
  })

  it('decodes UTF-8, which agents pass through despite the ISO-8859-1 declaration', () => {
    const m = parseMonitMessage(message(serviceXml('café-☃', 7, '')))
    expect(m.services[0].name).toBe('café-☃')
  })

  it('decodes the predefined entities and character references, and nothing else', () => {
    const m = parseMonitMessage(message(serviceXml('a &lt;&gt;&amp;&quot;&apos; &#233;&#xE9; &foo; &#0; &', 7, '')))
    expect(m.services[0].name).toBe('a <>&"\' éé &foo; &#0; &')
  })

  it('reads CDATA wherever text is expected (6.x), empty CDATA as empty text', () => {
    const m = parseMonitMessage(
      message(serviceXml('p', 7, '<program><started>1</started><status>3</status><output><![CDATA[]]></output></program>'), {
        beforeServices: '<hostgroups><name><![CDATA[Oslo]]></name><name><![CDATA[DB & <web>]]></name></hostgroups>',
        serviceGroups: '<servicegroup name="g"><service><![CDATA[p]]></service></servicegroup>',
        extra:
          '<event><service><![CDATA[p]]></service><type>7</type><id type="77">2097152</id><state>1</state>' +
          '<action>1</action><message><![CDATA[status failed (3) -- ]]&gt; </done>]]></message></event>'
      })
    )
    expect(m.hostGroups).toEqual(['Oslo', 'DB & <web>'])
    expect(m.serviceGroups).toEqual([{ name: 'g', services: ['p'] }])
    expect(statistic(m.services[0], Stat.ProgramOutput)?.text).toBe('')
    expect(m.event).toMatchObject({ service: 'p', id: 2097152, message: 'status failed (3) -- ]]> </done>' })
  })

  it('reads a pretty-printed document with comments and a program output spanning lines', () => {
    const m = parseMonitMessage(
      Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>
<!-- captured by hand -->
<monit id = 'x1' incarnation="7">
  <server>
    <poll> 30 </poll>
  </server>
  <services>
    <service name="p">
      <type>7</type>
      <program>
        <status>1</status>
        <output><![CDATA[line one
line two]]></output>
      </program>
    </service>
  </services>
</monit>
`)
    )
    expect(m.agent).toEqual({ id: 'x1', incarnation: 7, version: '' })
    expect(m.server.poll).toBe(30)
    expect(service(m, 'p').statistics).toEqual([
      { type: Stat.ProgramStatus, descriptor: '', value: 1 },
      { type: Stat.ProgramOutput, descriptor: '', value: 0, text: 'line one\nline two' }
    ])
  })

  it('ignores elements and attributes from newer agents and reads what it knows among them', () => {
    const m = parseMonitMessage(
      message(
        `<service name="sys" extra="1"><type>5</type>${COMMON}` +
          '<errors><event id="3" state="1"></event><event id="9" state="0"/></errors>' +
          '<uptime>86400</uptime><boottime>1699913600</boottime>' +
          '<filedescriptors><allocated>10</allocated><unused>0</unused><maximum>100</maximum></filedescriptors>' +
          '<system><load><avg01>1.5</avg01><avg05>1</avg05><avg15>0.5</avg15><avg60>9</avg60></load>' +
          '<cpu><user>1</user><system>2</system></cpu><memory><percent>3</percent><kilobyte>4</kilobyte></memory>' +
          '<paging><in>1</in><out>2</out></paging></system></service>' +
          serviceXml('f', 2, '<mode>600</mode><size>5</size><hardlink>2</hardlink><future><x><future>1</future></x></future>'),
        { beforeServices: '<whatever a="b"><nested/></whatever>' }
      )
    )
    const sys = service(m, 'sys')
    expect(valueOf(sys, Stat.SystemUptime)).toBe(86400)
    expect(statistic(sys, Stat.Uptime)).toBeUndefined()
    expect(sys.statistics.filter((st) => st.type === Stat.LoadAverage).map((st) => st.descriptor)).toEqual(['avg01', 'avg05', 'avg15'])
    expect(sys.statistics).toHaveLength(11)
    const file = service(m, 'f')
    expect(valueOf(file, Stat.Hardlinks)).toBe(2)
    expect(file.statistics).toHaveLength(3)
  })

  it('takes the TCP address and the unix socket when 6.x sends both', () => {
    const m = parseMonitMessage(
      message('', {
        server: '<httpd><address>::1</address><port>2812</port><ssl>0</ssl><unixsocket>/run/monit.sock</unixsocket></httpd>'
      })
    )
    expect(m.server.httpd).toEqual({ address: '::1', port: 2812, ssl: false })
    expect(m.server.unixSocket).toBe('/run/monit.sock')
  })

  it('has no httpd for a unix-socket-only agent', () => {
    const m = parseMonitMessage(message('', { server: '<httpd><unixsocket>/run/monit.sock</unixsocket></httpd>' }))
    expect(m.server.httpd).toBeUndefined()
    expect(m.server.unixSocket).toBe('/run/monit.sock')
  })

  it('defaults missing optional fields and never produces NaN', () => {
    const m = parseMonitMessage(
      Buffer.from(
        '<monit id="x1" incarnation="soon"><server><poll>five</poll><httpd><address>1.2.3.4</address></httpd></server>' +
          '<services><service name="s"><type>3</type><status></status><pid>12a</pid><ppid/><uid>  </uid>' +
          '<memory><percent>NaN</percent><kilobyte>Infinity</kilobyte></memory><cpu><percent>-1.0</percent>' +
          '<percenttotal>-1.0</percenttotal></cpu><read></read><write/><children>1e3</children></service>' +
          '<service><type>3</type></service></services></monit>'
      )
    )
    expect(m.agent).toEqual({ id: 'x1', incarnation: 0, version: '' })
    expect(m.server).toEqual({ uptime: 0, poll: 0, startDelay: 0, localHostname: '', controlFile: '' })
    expect(m.platform).toEqual({ name: '', release: '', version: '', machine: '', cpu: 0, memory: 0, swap: 0 })
    expect(m.serviceGroups).toEqual([])
    expect(m.services).toEqual([
      {
        name: 's',
        type: 3,
        collectedSec: 0,
        collectedUsec: 0,
        status: 0,
        statusHint: 0,
        monitor: 0,
        monitorMode: 0,
        onReboot: 0,
        pendingAction: 0,
        statistics: [{ type: Stat.Children, descriptor: '', value: 1000 }]
      }
    ])
  })

  it('renders the every rule', () => {
    const every = (rule: string): string | undefined =>
      parseMonitMessage(message(serviceXml('s', 3, `<every>${rule}</every>`))).services[0].every
    expect(every('<type>2</type><counter>1</counter><number>3</number>')).toBe('every 3 cycles')
    expect(every('<type>3</type><cron>0 2 * * *</cron>')).toBe('every "0 2 * * *"')
    expect(every('<type>4</type><cron>* 8-19 * * 1-5</cron>')).toBe('not every "* 8-19 * * 1-5"')
    expect(every('<type>9</type>')).toBeUndefined()
  })

  it('names port, socket and ping tests so that several of a kind stay apart', () => {
    const m = parseMonitMessage(
      message(
        serviceXml(
          'web',
          3,
          '<pid>1</pid>' +
            '<icmp><type>Ping</type><responsetime>0.001</responsetime></icmp>' +
            '<port><hostname>web.example</hostname><portnumber>443</portnumber><request><![CDATA[/health]]></request>' +
            '<protocol>HTTP</protocol><type>TCP</type><responsetime>0.012</responsetime>' +
            '<certificate><valid>42</valid></certificate></port>' +
            '<port><hostname>web.example</hostname><portnumber>53</portnumber><request><![CDATA[]]></request>' +
            '<protocol>DNS</protocol><type>UDP</type><responsetime>0.002</responsetime></port>' +
            '<unix><path>/run/a.sock</path><protocol>DEFAULT</protocol><responsetime>0.0001</responsetime></unix>' +
            '<unix><path>/run/b.sock</path><protocol>DEFAULT</protocol><responsetime>-1.000000</responsetime></unix>'
        )
      )
    )
    expect(m.services[0].statistics).toEqual([
      { type: Stat.Pid, descriptor: '', value: 1 },
      { type: Stat.PingResponseTime, descriptor: 'Ping', value: 0.001 },
      { type: Stat.PortResponseTime, descriptor: 'web.example:443 [HTTP/TCP]', value: 0.012 },
      { type: Stat.CertificateValidDays, descriptor: 'web.example:443 [HTTP/TCP]', value: 42 },
      { type: Stat.PortResponseTime, descriptor: 'web.example:53 [DNS/UDP]', value: 0.002 },
      { type: Stat.UnixSocketResponseTime, descriptor: '/run/a.sock', value: 0.0001 }
    ])
  })

  it('keeps the descriptors of look-alike tests apart, and stable when one fails', () => {
    const port = (request: string, time: string): string =>
      `<port><hostname>h</hostname><portnumber>80</portnumber><request><![CDATA[${request}]]></request>` +
      `<protocol>HTTP</protocol><type>TCP</type><responsetime>${time}</responsetime></port>`
    const m = parseMonitMessage(message(serviceXml('web', 4, port('/a', '0.1') + port('/b', '-1') + port('/c', '0.3') + port('/d', '0.4'))))
    expect(m.services[0].statistics.map((st) => [st.descriptor, st.value])).toEqual([
      ['h:80 [HTTP/TCP]', 0.1],
      ['h:80 [HTTP/TCP] #3', 0.3],
      ['h:80 [HTTP/TCP] #4', 0.4]
    ])
  })

  it('does not mistake markup-like program output for a declaration', () => {
    const m = parseMonitMessage(
      message(
        serviceXml('p', 7, '<program><status>0</status><output><![CDATA[<!DOCTYPE html><!ENTITY x "y"></output>]]></output></program>')
      )
    )
    expect(statistic(m.services[0], Stat.ProgramOutput)?.text).toBe('<!DOCTYPE html><!ENTITY x "y"></output>')
  })

  it('strips the XML-illegal control characters everywhere, keeping tabs and newlines', () => {
    const m = parseMonitMessage(
      message(serviceXml('na\x01me', 7, '<program><output><![CDATA[a\x00b\x08c\x0bd\x0ce\x1ff\tg\nh\ri]]></output></program>'))
    )
    expect(m.services[0].name).toBe('name')
    expect(statistic(m.services[0], Stat.ProgramOutput)?.text).toBe('abcdef\tg\nh\ri')
  })
})

describe('parseMonitMessage: rejected input', () => {
  const heartbeat = fixture('02-status-heartbeat.xml')
  /** Repetitions for the hostile inputs: a quadratic scan of these would not finish in the test timeout. */
  const N = 100_000

  it.each([
    ['an empty body', '', 'not a Monit message: no root element'],
    ['plain text', 'hello', 'not a Monit message: no root element'],
    ['JSON', '{"monit": {"id": "x"}}', 'not a Monit message: no root element'],
    ['another root element', '<foo/>', 'not a Monit message: root element is <foo>'],
    [
      'another root element after a declaration',
      '<?xml version="1.0"?>\n<rss version="2.0"></rss>',
      'not a Monit message: root element is <rss>'
    ],
    ['a root without id', '<monit><services></services></monit>', 'not a Monit message: <monit> has no id attribute'],
    ['a root with an empty id', '<monit id=""><services></services></monit>', 'not a Monit message: <monit> has no id attribute'],
    [
      'the v1 status format',
      '<monit><server><id>x</id></server><service type="3"><name>a</name></service></monit>',
      'not a Monit message: <monit> has no id attribute'
    ],
    ['a message without services', '<monit id="x1"><server></server></monit>', 'not a Monit message: <services> missing'],
    [
      'a document cut inside <services>',
      '<monit id="x1"><services><service name="a"><type>1</type></service>',
      'truncated document: <services> not closed'
    ],
    ['a document without </monit>', '<monit id="x1"><services></services>', 'truncated document: <monit> not closed'],
    [
      'a DOCTYPE',
      '<?xml version="1.0"?><!DOCTYPE monit SYSTEM "file:///etc/passwd"><monit id="x1"><services/></monit>',
      'DOCTYPE/entity declarations are not accepted'
    ],
    ['an ENTITY inside the document', '<monit id="x1"><!ENTITY x "y"><services/></monit>', 'DOCTYPE/entity declarations are not accepted']
  ])('rejects %s', (_label, body, reason) => {
    expect(parseError(Buffer.from(body)).message).toBe(reason)
  })

  it('rejects a billion-laughs document without expanding anything', () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('')
    const body =
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${entities}]>` +
      '<monit id="x1"><server><localhostname>&lol9;</localhostname></server><services/></monit>'
    expect(parseError(Buffer.from(body)).message).toBe('DOCTYPE/entity declarations are not accepted')
  })

  it.each([0, 1, 38, 100, heartbeat.length >> 1, heartbeat.length - 20, heartbeat.length - 9, heartbeat.length - 1])(
    'rejects fixture 02 cut to %i bytes',
    (length) => {
      expect(parseError(heartbeat.subarray(0, length))).toBeInstanceOf(MessageParseError)
    }
  )

  it('rejects every proper prefix of fixture 02 that ends inside <services>', () => {
    const servicesEnd = heartbeat.indexOf('</services>')
    for (let length = heartbeat.indexOf('<services>'); length < servicesEnd; length += 7) {
      expect(parseError(heartbeat.subarray(0, length)).message).toMatch(/^truncated document: </)
    }
  })

  it('rejects random bytes', () => {
    const next = random(1)
    for (let round = 0; round < 300; round++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(next() * 400) }, () => Math.floor(next() * 256)))
      expect(parseError(bytes)).toBeInstanceOf(MessageParseError)
    }
  })

  /** What the parser makes of a body: its refusal, or the names of the services it read. */
  const answerTo = (body: Buffer): string => {
    try {
      const { services } = parseMonitMessage(body)
      return `services: [${services.map((s) => s.name).join(', ')}]`
    } catch (error) {
      if (!(error instanceof MessageParseError)) throw error
      return `refused: ${error.message}`
    }
  }

  const HOSTILE_ANSWERS: Record<HostileShape, string> = {
    'unclosed tags': `refused: truncated document: ${'<a'.repeat(N)}> not closed`,
    'quotes that never end an attribute': 'refused: truncated document: <service> not closed',
    'many attributes': 'services: []',
    'stray markup in a leaf': 'services: [s]',
    'deeply nested unknown elements': 'services: [s]',
    'deeply nested services': 'refused: truncated document: <service> not closed',
    'close tags without >': 'refused: truncated document: <service> not closed',
    'entity-like text': 'services: []',
    'many CDATA sections': 'services: [s]'
  }

  // How the time grows with the input is measured by the parser benchmark (npm run bench -- parser).
  it.each(Object.entries(HOSTILE_ANSWERS))('answers hostile input of 100,000 repetitions: %s', (shape, answer) => {
    expect(answerTo(Buffer.from(HOSTILE_SHAPES[shape as HostileShape](N)))).toBe(answer)
  })

  it('refuses 3 MiB of random bytes (full of control characters) and 3 MiB of spaces', () => {
    for (const body of [randomNoise(), spaces()]) expect(parseError(body).message).toBe('not a Monit message: no root element')
  })

  it('either parses or throws MessageParseError for thousands of truncations and mutations of fixture 02', () => {
    const next = random(42)
    const pick = (n: number): number => Math.floor(next() * n)
    const markup = ['<', '>', '&', '"', '</', '/>', '<![CDATA[', ']]>', '<!--', '<service>', '</service>', '\x00', 'é']
    const mutate = (body: Buffer): Buffer => {
      const at = pick(body.length)
      switch (pick(5)) {
        case 0:
          return body.subarray(0, at)
        case 1:
          return Buffer.concat([body.subarray(0, at), body.subarray(at + 1 + pick(200))])
        case 2:
          return Buffer.concat([body.subarray(0, at), Buffer.from([pick(256)]), body.subarray(at + 1)])
        case 3:
          return Buffer.concat([body.subarray(0, at), Buffer.from(markup[pick(markup.length)]), body.subarray(at)])
        default:
          return Buffer.concat([body.subarray(0, at), body.subarray(pick(body.length))])
      }
    }
    let parsed = 0
    let rejected = 0
    for (let round = 0; round < 4000; round++) {
      let body = heartbeat
      for (let edits = 1 + pick(3); edits > 0; edits--) body = mutate(body)
      try {
        expectAllNumbersFinite(parseMonitMessage(body))
        parsed++
      } catch (error) {
        if (!(error instanceof MessageParseError)) throw error
        rejected++
      }
    }
    expect(parsed).toBeGreaterThan(0)
    expect(rejected).toBeGreaterThan(0)
  })
})
