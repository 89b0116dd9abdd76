// Turns the body a Monit agent POSTs to /collector into a `MonitMessage` (agent protocol §4).
// Lenient where real agents are sloppy (§4.9), strict where input is hostile or cut short.

import { clipped, defaultMessageLimits, MAX_HOST_GROUPS, MessageBudget, TEXT_LIMITS, type MessageLimits } from './message-limits'
import type { MonitEvent, MonitMessage, PlatformInfo, ServerInfo, ServiceGroup, ServiceSnapshot } from './message'
import { StatisticsReader } from './statistics'
import { MessageParseError, toNumber, XmlScanner } from './xml-scanner'

export { MessageParseError }

const utf8 = new TextDecoder('utf-8', { fatal: true })

const ILLEGAL_CONTROL_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F]/

/** Longest root element name quoted back in an error, so random bytes do not flood the log. */
const MAX_QUOTED_NAME = 40

/** Throws MessageParseError for what is no Monit message, MessageTooLarge past `limits`. */
export function parseMonitMessage(body: Buffer, limits: MessageLimits = defaultMessageLimits): MonitMessage {
  const s = new XmlScanner(decodeBody(body))
  const budget = new MessageBudget(limits)
  const message = openMonitRoot(s)
  let sawServices = false
  for (let child = s.nextChild('monit'); child !== null; child = s.nextChild('monit')) {
    switch (child) {
      case 'server':
        message.server = readServer(s)
        break
      case 'platform':
        message.platform = readPlatform(s)
        break
      case 'hostgroups':
        readHostGroups(s, message)
        break
      case 'services':
        message.services = readServices(s, budget)
        sawServices = true
        break
      case 'servicegroups':
        message.serviceGroups = readServiceGroups(s, budget)
        break
      case 'event':
        message.event = readEvent(s)
        break
      default:
        s.skip(child)
    }
  }
  if (!sawServices) throw new MessageParseError('not a Monit message: <services> missing')
  return message
}

/**
 * Control characters XML 1.0 forbids (ANSI colour codes in program output, §4.9) are dropped. They
 * are cut from the bytes rather than with String.replace(), whose result is markedly slower to scan.
 */
function decodeBody(body: Buffer): string {
  const text = decodeText(body)
  return ILLEGAL_CONTROL_CHAR.test(text) ? decodeText(withoutControlCharacters(body)) : text
}

/** The declaration says ISO-8859-1, but agents pass names and program output through unchanged, so
 * UTF-8 is the norm (§4.9); bytes that are not UTF-8 are read as ISO-8859-1. */
function decodeText(bytes: Buffer): string {
  try {
    return utf8.decode(bytes)
  } catch {
    return bytes.toString('latin1')
  }
}

/** The control characters are single bytes in UTF-8 and ISO-8859-1 alike. One pass over the bytes:
 * cutting around each match instead took 80 ms for 3 MB of random bytes, a cheap way to stall ingest. */
function withoutControlCharacters(body: Buffer): Buffer {
  const kept = Buffer.allocUnsafe(body.length)
  let length = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) kept[length++] = c
  }
  return kept.subarray(0, length)
}

function openMonitRoot(s: XmlScanner): MonitMessage {
  const root = s.openRoot()
  if (root === undefined) throw new MessageParseError('not a Monit message: no root element')
  if (root !== 'monit') {
    throw new MessageParseError(`not a Monit message: root element is <${root.slice(0, MAX_QUOTED_NAME)}>`)
  }
  const id = s.attribute('id')?.trim() ?? ''
  if (id === '') throw new MessageParseError('not a Monit message: <monit> has no id attribute')
  return {
    agent: { id, incarnation: numberOr0(s.attribute('incarnation')), version: s.attribute('version') ?? '' },
    server: emptyServer(),
    platform: readPlatformFields(new Map()),
    hostGroups: [],
    hostGroupsLeftOut: 0,
    services: [],
    serviceGroups: []
  }
}

const emptyServer = (): ServerInfo => ({ uptime: 0, poll: 0, startDelay: 0, localHostname: '', controlFile: '' })

const numberOr0 = (text: string | undefined): number => toNumber(text ?? '') ?? 0
/** A host, service or group name, at most TEXT_LIMITS.name characters. */
const name = (text: string): string => clipped(text, TEXT_LIMITS.name)
/** Any other short field the agent reports about itself. */
const field = (text: string): string => clipped(text, TEXT_LIMITS.field)

function readServer(s: XmlScanner): ServerInfo {
  const server = emptyServer()
  for (let child = s.nextChild('server'); child !== null; child = s.nextChild('server')) {
    switch (child) {
      case 'uptime':
        server.uptime = s.readNumber(child) ?? 0
        break
      case 'poll':
        server.poll = s.readNumber(child) ?? 0
        break
      case 'startdelay':
        server.startDelay = s.readNumber(child) ?? 0
        break
      case 'localhostname':
        server.localHostname = name(s.readText(child))
        break
      case 'controlfile':
        server.controlFile = field(s.readText(child))
        break
      case 'httpd':
        readHttpd(s.readLeafTexts(child), server)
        break
      case 'credentials':
        server.credentials = readCredentials(s.readLeafTexts(child))
        break
      default:
        s.skip(child)
    }
  }
  return server
}

/** 5.33 sends either a TCP address or a unix socket; 6.x may send both (§4.2). */
function readHttpd(fields: Map<string, string>, server: ServerInfo): void {
  const address = field(fields.get('address') ?? '')
  const port = numberOr0(fields.get('port'))
  if (address !== '' && port > 0) server.httpd = { address, port, ssl: numberOr0(fields.get('ssl')) !== 0 }
  const unixSocket = fields.get('unixsocket')
  if (unixSocket !== undefined && unixSocket !== '') server.unixSocket = field(unixSocket)
}

function readCredentials(fields: Map<string, string>): ServerInfo['credentials'] {
  return { username: field(fields.get('username') ?? ''), password: field(fields.get('password') ?? '') }
}

const readPlatform = (s: XmlScanner): PlatformInfo => readPlatformFields(s.readLeafTexts('platform'))

function readPlatformFields(fields: Map<string, string>): PlatformInfo {
  return {
    name: field(fields.get('name') ?? ''),
    release: field(fields.get('release') ?? ''),
    version: field(fields.get('version') ?? ''),
    machine: field(fields.get('machine') ?? ''),
    cpu: numberOr0(fields.get('cpu')),
    memory: numberOr0(fields.get('memory')),
    swap: numberOr0(fields.get('swap'))
  }
}

/**
 * 5.34+: `<hostgroups><name><![CDATA[Oslo]]></name>…</hostgroups>`. Names are trimmed as the API trims
 * a group's name and repeats count once; past MAX_HOST_GROUPS names are counted, not kept.
 */
function readHostGroups(s: XmlScanner, message: MonitMessage): void {
  const groups = new Set(message.hostGroups)
  for (let child = s.nextChild('hostgroups'); child !== null; child = s.nextChild('hostgroups')) {
    if (child !== 'name') {
      s.skip(child)
      continue
    }
    const group = name(s.readText(child).trim())
    if (group === '' || groups.has(group)) continue
    if (groups.size < MAX_HOST_GROUPS) groups.add(group)
    else message.hostGroupsLeftOut++
  }
  message.hostGroups = [...groups]
}

function readServices(s: XmlScanner, budget: MessageBudget): ServiceSnapshot[] {
  const services: ServiceSnapshot[] = []
  for (let child = s.nextChild('services'); child !== null; child = s.nextChild('services')) {
    if (child !== 'service') {
      s.skip(child)
      continue
    }
    budget.service()
    const service = readService(s, budget)
    // A service is known to the server by its name only; one without a name cannot be stored.
    if (service.name !== '') services.push(service)
  }
  return services
}

function readService(s: XmlScanner, budget: MessageBudget): ServiceSnapshot {
  const service: ServiceSnapshot = {
    name: name(s.attribute('name') ?? ''),
    type: 0,
    collectedSec: 0,
    collectedUsec: 0,
    status: 0,
    statusHint: 0,
    monitor: 0,
    monitorMode: 0,
    onReboot: 0,
    pendingAction: 0,
    statistics: []
  }
  const statistics = new StatisticsReader(s, budget)
  for (let child = s.nextChild('service'); child !== null; child = s.nextChild('service')) {
    switch (child) {
      case 'type':
        service.type = s.readNumber(child) ?? 0
        break
      case 'collected_sec':
        service.collectedSec = s.readNumber(child) ?? 0
        break
      case 'collected_usec':
        service.collectedUsec = s.readNumber(child) ?? 0
        break
      case 'status':
        service.status = s.readNumber(child) ?? 0
        break
      case 'status_hint':
        service.statusHint = s.readNumber(child) ?? 0
        break
      case 'monitor':
        service.monitor = s.readNumber(child) ?? 0
        break
      case 'monitormode':
        service.monitorMode = s.readNumber(child) ?? 0
        break
      case 'onreboot':
        service.onReboot = s.readNumber(child) ?? 0
        break
      case 'pendingaction':
        service.pendingAction = s.readNumber(child) ?? 0
        break
      case 'every':
        service.every = describeEvery(s.readLeafTexts(child))
        break
      default:
        statistics.read(child, service.type)
    }
  }
  service.statistics = statistics.statistics
  return service
}

/** `<every>` types (§4.3): 2 skip cycles, 3 cron, 4 not in cron. */
function describeEvery(fields: Map<string, string>): string | undefined {
  switch (numberOr0(fields.get('type'))) {
    case 2:
      return `every ${numberOr0(fields.get('number'))} cycles`
    case 3:
      return `every "${fields.get('cron') ?? ''}"`
    case 4:
      return `not every "${fields.get('cron') ?? ''}"`
    default:
      return undefined
  }
}

function readServiceGroups(s: XmlScanner, budget: MessageBudget): ServiceGroup[] {
  const groups: ServiceGroup[] = []
  for (let child = s.nextChild('servicegroups'); child !== null; child = s.nextChild('servicegroups')) {
    if (child !== 'servicegroup') {
      s.skip(child)
      continue
    }
    const group = name(s.attribute('name') ?? '')
    const services = readGroupMembers(s, budget)
    if (group !== '') groups.push({ name: group, services })
  }
  return groups
}

function readGroupMembers(s: XmlScanner, budget: MessageBudget): string[] {
  const members: string[] = []
  for (let child = s.nextChild('servicegroup'); child !== null; child = s.nextChild('servicegroup')) {
    if (child !== 'service') {
      s.skip(child)
      continue
    }
    budget.groupMember()
    members.push(name(s.readText(child)))
  }
  return members
}

function readEvent(s: XmlScanner): MonitEvent {
  const fields = s.readLeafTexts('event')
  return {
    collectedSec: numberOr0(fields.get('collected_sec')),
    collectedUsec: numberOr0(fields.get('collected_usec')),
    service: name(fields.get('service') ?? ''),
    serviceType: numberOr0(fields.get('type')),
    id: numberOr0(fields.get('id')),
    state: numberOr0(fields.get('state')),
    action: numberOr0(fields.get('action')),
    message: clipped(fields.get('message') ?? '', TEXT_LIMITS.message, true)
  }
}
