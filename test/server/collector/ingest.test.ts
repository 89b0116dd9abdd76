import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EventClassId, HostStatus, Led, Stat } from '../../../src/shared/codes'
import { decodeStatistics } from '../../../src/server/store/latest-statistics'
import { Ingest } from '../../../src/server/collector/ingest'
import { parseMonitMessage } from '../../../src/server/monit/parse-message'
import { fixture } from '../../support/fixtures'
import { shiftTime, withEvent, withIncarnation, withoutService } from '../../support/payloads'
import { tempStore, type TempStore } from '../../support/temp-store'
import { hostOfAgent } from '../../support/hosts'

// Agent 1's fixtures in the order they happened (docs/development.md, "Test fixtures": sort by collected_sec).
const agent1Chronological = [
  '01-event-monit-started',
  '03-event-process-not-running',
  '11-event-checksum-changed',
  '12-event-program-status-failed',
  '02-status-heartbeat',
  '04-event-action-done-stop',
  '10-event-replayed-from-queue',
  '08-event-monit-reloaded',
  '05-event-monit-stopped',
  '06-event-monit-started-after-restart',
  '07-status-gzip'
]
const AGENT1 = '39900374079c371b7380946708ce1e29'
const T0 = 1795300500_000

let t: TempStore
beforeEach(() => (t = tempStore()))
afterEach(() => t.close())

function host(agentId = AGENT1) {
  return hostOfAgent(t.store, agentId)!
}

function rows<T>(sql: string, ...args: unknown[]): T[] {
  return t.store.sql.plain.prepare(sql).all(...args) as T[]
}

function events() {
  return rows<{ service_name: string; class: number; state: number; message: string; active: number; date: number }>(
    'SELECT service_name, class, state, message, active, date FROM event ORDER BY collected_usec'
  )
}

function service(name: string) {
  return rows<{ id: number; led: number; status_text: string; monitor: number; events_count: number; collected_usec: number }>(
    'SELECT id, led, status_text, monitor, events_count, collected_usec FROM service WHERE name = ?',
    name
  )[0]
}

function intervalsOf(serviceName: string) {
  return rows<{ start: number; end: number | null }>(
    'SELECT start, "end" FROM state_interval WHERE service_name_id = (SELECT id FROM service_name WHERE name = ?) ORDER BY start',
    serviceName
  )
}

function statistic(serviceName: string, type: number, descriptor = '') {
  const [{ statistics }] = rows<{ statistics: string }>('SELECT statistics FROM service WHERE name = ?', serviceName)
  return decodeStatistics(statistics).find((st) => st.type === type && st.descriptor === descriptor)
}

describe('registration and host facts', () => {
  it('registers a host by agent id with what the agent reports', () => {
    const r = t.post(fixture('02-status-heartbeat'), T0)
    expect(r.registered).toBe(true)
    const h = host()
    expect(h).toMatchObject({
      hostname: 'agent1-host',
      agent_version: '5.33.0',
      incarnation: 1795300230,
      poll: 5,
      start_delay: 0,
      ipaddr_in: '127.0.0.1',
      port_in: 2812,
      ssl_in: 0,
      agent_user: 'admin',
      status: HostStatus.Active,
      platform_name: 'Linux',
      platform_machine: 'x86_64',
      cpu_count: 2,
      memory_kb: 24731700,
      swap_kb: 0,
      control_file: '/etc/monit/monitrc',
      last_modified: T0 / 1000,
      heartbeat: 1,
      heartbeat_deadline_ms: T0 + 15_000
    })
    // The agent's admin password is stored encrypted, and decrypts to what it sent.
    expect(h.agent_password).not.toContain('adminpw')
    expect(t.secrets.open(h.agent_password)).toBe('adminpw')
  })

  it('keeps one host per agent id across restarts and reloads', () => {
    for (const name of agent1Chronological) t.post(fixture(name), T0)
    t.post(fixture('09-event-agent2-started-no-credentials'), T0)
    expect(rows('SELECT id FROM host')).toHaveLength(2)
    expect(host().incarnation).toBe(1795300472)
  })

  it('follows the agent hostname unless keepname is set', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    t.post(
      shiftTime(
        fixture('02-status-heartbeat')
          .toString()
          .replace(/agent1-host</g, 'renamed<'),
        5
      ),
      T0 + 5000
    )
    expect(host().hostname).toBe('renamed')
    t.store.hosts.update(host().id, { keepname: 1, hostname: 'chosen by admin' })
    t.post(shiftTime(fixture('02-status-heartbeat'), 10), T0 + 10_000)
    expect(host().hostname).toBe('chosen by admin')
  })

  it('clears call-back credentials for an agent registered without them, unless an admin pinned them', () => {
    t.post(fixture('09-event-agent2-started-no-credentials'), T0)
    const agent2 = host('52f8e433d90c74acfca9e2891ec45156')
    expect(agent2).toMatchObject({ ipaddr_in: '127.0.0.1', port_in: 2813, agent_user: '', agent_password: '' })
    t.post(fixture('02-status-heartbeat'), T0)
    t.store.hosts.update(host().id, { credentials_pinned: 1, agent_user: 'ops', agent_password: t.secrets.seal('pinned') })
    t.post(shiftTime(fixture('02-status-heartbeat'), 5), T0 + 5000)
    expect(host().agent_user).toBe('ops')
    expect(t.secrets.open(host().agent_password)).toBe('pinned')
  })
})

describe('services and latest statistics', () => {
  it('stores every service with LED, status text and latest statistics', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    expect(rows('SELECT name FROM service ORDER BY position').map((r) => (r as { name: string }).name)).toEqual([
      'agent1-host',
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
    expect(service('sleeper')).toMatchObject({ led: Led.Green, status_text: 'OK', monitor: 1 })
    expect(service('deadport')).toMatchObject({ led: Led.Red, status_text: 'Connection failed' })
    expect(statistic('rootfs', Stat.SpacePercent)!.value).toBe(8.8)
    expect(statistic('agent1-host', Stat.LoadAverage, 'avg01')!.value).toBe(0.95)
    expect(statistic('sleeper', Stat.Pid)!.value).toBe(8382)
    expect(statistic('labprog', Stat.ProgramOutput)!.text).toBe('labprog says hello at 1795300301')
    expect(statistic('lohost', Stat.PortResponseTime, '127.0.0.1:2812 [DEFAULT/TCP]')!.value).toBeCloseTo(0.00005)
    // Host summary: 10 of 11 available, one failing service → orange; cpu = busy CPU of the system service.
    expect(host()).toMatchObject({
      led: Led.Orange,
      status_text: '10 out of 11 services are available',
      services_total: 11,
      services_failed: 1,
      cpu: 47.1,
      mem: 3.3
    })
  })

  it('keeps the id of a statistic across messages, and drops statistics a newer snapshot no longer has', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    const idOf = () =>
      statistic('rootfs', Stat.SpacePercent) &&
      rows<{ id: number }>(
        `SELECT st.id FROM statistic st
      JOIN service s ON s.id = st.service_id WHERE s.name = 'rootfs' AND st.type = ?`,
        Stat.SpacePercent
      )[0].id
    const before = idOf()
    t.post(shiftTime(fixture('02-status-heartbeat'), 5), T0 + 5000)
    expect(idOf()).toBe(before)
    t.post(shiftTime(fixture('01-event-monit-started'), 500), T0 + 10_000) // restart: no statistics yet
    expect(idOf()).toBeUndefined()
  })

  it('shows initializing services as gray without statistics (agent start)', () => {
    t.post(fixture('01-event-monit-started'), T0)
    expect(service('sleeper')).toMatchObject({ led: Led.Gray, status_text: 'Initializing' })
    expect(rows('SELECT * FROM statistic')).toHaveLength(0)
    expect(host().led).toBe(Led.Gray)
  })

  it('shows a service its events say is failing as failing while Monit initializes it again (issue 28)', () => {
    t.post(fixture('03-event-process-not-running'), T0)
    t.post(shiftTime(fixture('01-event-monit-started'), 500), T0 + 1000) // a restart: every service initializing, status 0
    expect(service('sleeper')).toMatchObject({ led: Led.Red, status_text: 'Does not exist', monitor: 2 })
    expect(service('labfile')).toMatchObject({ led: Led.Gray, status_text: 'Initializing' })
    expect(host()).toMatchObject({ services_failed: 1, led: Led.Red })
    // Once Monit has checked it, its status bits are the verdict, though no recovery event came.
    t.post(shiftTime(fixture('02-status-heartbeat'), 600), T0 + 2000)
    expect(service('sleeper')).toMatchObject({ led: Led.Green, status_text: 'OK' })
  })

  it('does not let an older snapshot that arrives late overwrite a newer one', () => {
    t.post(fixture('02-status-heartbeat'), T0) // collected at …306
    const before = service('sleeper')
    t.post(fixture('03-event-process-not-running'), T0 + 1000) // collected at …276, arrives later
    expect(service('sleeper')).toMatchObject({ led: Led.Green, collected_usec: before.collected_usec })
    expect(statistic('sleeper', Stat.Pid)!.value).toBe(8382)
    // The event it carries is still a fact.
    expect(events().map((e) => e.message)).toEqual(['process is not running'])
  })

  it('removes services that disappear from the snapshot, with their statistics', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    const labfifo = service('labfifo')
    t.post(withoutService(shiftTime(fixture('02-status-heartbeat'), 5), 'labfifo'), T0 + 5000)
    expect(service('labfifo')).toBeUndefined()
    expect(rows('SELECT * FROM statistic WHERE service_id = ?', labfifo.id)).toHaveLength(0)
    expect(host().services_total).toBe(10)
  })

  it('reads a host’s services again when another ingest (another instance on the database) applied its last message', () => {
    const other = new Ingest(t.store, t.secrets)
    t.post(fixture('02-status-heartbeat'), T0)
    other.apply(parseMonitMessage(Buffer.from(withoutService(shiftTime(fixture('02-status-heartbeat'), 5), 'labfifo'))), T0 + 5000)
    expect(service('labfifo')).toBeUndefined()
    // This ingest remembers labfifo from its own message: it must not take it as still stored.
    t.post(shiftTime(fixture('02-status-heartbeat'), 10), T0 + 10_000)
    expect(service('labfifo')).toMatchObject({ led: Led.Green })
    expect(host().services_total).toBe(11)
  })

  it('stores service groups with shared service name ids', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    t.post(fixture('13-status-invalid-xml-control-chars'), T0)
    const members = rows<{ host_id: number; group: string; name: string }>(
      `SELECT g.host_id, g.name AS "group", n.name FROM service_group g
       JOIN service_group_member m ON m.group_id = g.id JOIN service_name n ON n.id = m.service_name_id ORDER BY g.host_id, n.name`
    )
    expect(members.filter((m) => m.host_id === host().id).map((m) => m.name)).toEqual(['labfile', 'labprog', 'sleeper'])
    // Both hosts' "sleeper" services share one name id (the spec's nameid).
    expect(rows('SELECT DISTINCT name_id FROM service WHERE name = ?', 'sleeper')).toHaveLength(1)
  })
})

describe('events', () => {
  it('stores each event once, with state, class and action, in agent time', () => {
    for (const name of agent1Chronological) t.post(fixture(name), T0)
    for (const name of agent1Chronological) t.post(fixture(name), T0) // queue replays and retries
    expect(events().map((e) => [e.service_name, e.class, e.state, e.message])).toEqual([
      ['Monit', 65536, 2, 'Monit 5.33.0 started'],
      ['sleeper', 512, 1, 'process is not running'],
      ['labfile', 1, 2, 'checksum changed to 7a82895b34cc2432272f08d29f14d4f8'],
      ['labprog', 2097152, 1, 'status failed (3) -- labprog says hello at 1795300291'],
      ['sleeper', 131072, 2, 'stop action done'],
      // 10 fails again in the same incarnation: a fact, though the recovery between was not captured.
      ['sleeper', 512, 1, 'process is not running'],
      ['Monit', 65536, 2, 'Monit reloaded'],
      ['Monit', 65536, 2, 'Monit 5.33.0 stopped'],
      ['Monit', 65536, 2, 'Monit 5.33.0 started']
    ])
    expect(host().events_count).toBe(9)
    expect(service('sleeper').events_count).toBe(3)
  })

  it('stores a failure that follows a failure in the same incarnation, and keeps both active until a recovery', () => {
    t.post(fixture('03-event-process-not-running'), T0) // …276
    t.post(fixture('10-event-replayed-from-queue'), T0) // …390, same incarnation
    expect(events().map((e) => [e.state, e.date, e.active])).toEqual([
      [1, 1795300276, 1],
      [1, 1795300390, 1]
    ])
    t.post(withEvent(fixture('10-event-replayed-from-queue'), { sec: 1795300400, state: 0, message: 'process is running' }), T0)
    expect(events().map((e) => e.active)).toEqual([0, 0, 0])
  })

  it('keeps a late event as history without changing the current state', () => {
    t.post(withEvent(fixture('03-event-process-not-running'), { sec: 1795300300, state: 0, message: 'process is running' }), T0)
    t.post(fixture('03-event-process-not-running'), T0) // failure at …276 delivered after the recovery at …300
    expect(events().map((e) => [e.state, e.active])).toEqual([
      [1, 0],
      [0, 0]
    ])
    expect(rows('SELECT state FROM event_state WHERE service_name = ?', 'sleeper')).toEqual([{ state: 0 }])
  })

  it('lets a late recovery end only the failures before it (agent time)', () => {
    const sleeper = (sec: number, state: number) =>
      withEvent(fixture('03-event-process-not-running'), { sec, state, message: `state ${state} at ${sec}` })
    t.post(sleeper(1795300276, 1), T0)
    t.post(sleeper(1795300300, 1), T0)
    t.post(sleeper(1795300290, 0), T0) // recovery between the two failures, delivered last
    expect(events().map((e) => [e.date, e.state, e.active])).toEqual([
      [1795300276, 1, 0],
      [1795300290, 0, 0],
      [1795300300, 1, 1]
    ])
    expect(rows('SELECT state FROM event_state WHERE service_name = ?', 'sleeper')).toEqual([{ state: 1 }])
  })

  it('stores a late failure inside a known span of health as inactive, and its down time where it happened', () => {
    const sleeper = (sec: number, state: number) =>
      withEvent(fixture('03-event-process-not-running'), { sec, state, message: `state ${state} at ${sec}` })
    t.post(sleeper(1795300240, 0), T0) // the incarnation began at …230
    t.post(sleeper(1795300300, 0), T0)
    t.post(sleeper(1795300250, 1), T0) // its failure and the recovery at …300 were queued; the recovery came first
    expect(events().map((e) => [e.date, e.state, e.active])).toEqual([
      [1795300240, 0, 0],
      [1795300250, 1, 0],
      [1795300300, 0, 0]
    ])
    expect(intervalsOf('sleeper')).toEqual([{ start: 1795300250, end: 1795300300 }])
  })

  it('rewrites down time when a late event falls into a down span', () => {
    const sleeper = (sec: number, state: number) =>
      withEvent(fixture('03-event-process-not-running'), { sec, state, message: `state ${state} at ${sec}` })
    t.post(sleeper(1795300276, 1), T0)
    t.post(sleeper(1795300300, 1), T0)
    expect(intervalsOf('sleeper')).toEqual([{ start: 1795300276, end: null }])
    t.post(sleeper(1795300290, 0), T0)
    expect(intervalsOf('sleeper')).toEqual([
      { start: 1795300276, end: 1795300290 },
      { start: 1795300300, end: null }
    ])
  })

  it('records service down time from the error event until recovery', () => {
    t.post(fixture('03-event-process-not-running'), T0)
    const sleeper = service('sleeper')
    const intervals = () =>
      rows<{ start: number; end: number | null }>(
        'SELECT start, "end" FROM state_interval WHERE service_name_id = (SELECT name_id FROM service WHERE id = ?)',
        sleeper.id
      )
    expect(intervals()).toEqual([{ start: 1795300276, end: null }])
    t.post(withEvent(fixture('03-event-process-not-running'), { sec: 1795300300, state: 0, message: 'process is running' }), T0)
    expect(intervals()).toEqual([{ start: 1795300276, end: 1795300300 }])
  })

  it('makes a host Inactive on "Monit stopped" and Active again on its next message', () => {
    t.post(fixture('05-event-monit-stopped'), T0)
    expect(host()).toMatchObject({ status: HostStatus.Inactive, inactive_since: T0 / 1000, heartbeat_deadline_ms: null, led: Led.Gray })
    t.post(fixture('06-event-monit-started-after-restart'), T0 + 60_000)
    expect(host()).toMatchObject({ status: HostStatus.Active, inactive_since: null, heartbeat_deadline_ms: T0 + 60_000 + 15_000 })
  })

  it('ignores a "stopped" event replayed from the queue by a later incarnation', () => {
    const replayed = withIncarnation(shiftTime(fixture('05-event-monit-stopped'), 100), 1795300600)
    t.post(replayed, T0)
    expect(host().status).toBe(HostStatus.Active)
    expect(events().map((e) => e.message)).toEqual(['Monit 5.33.0 stopped'])
  })

  it('stores no events for an Ignored host, but still follows its status', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    t.store.hosts.update(host().id, { status: HostStatus.Ignored })
    t.post(shiftTime(fixture('03-event-process-not-running'), 100), T0 + 1000)
    expect(events()).toHaveLength(0)
    expect(host()).toMatchObject({ status: HostStatus.Ignored, led: Led.Gray, heartbeat_deadline_ms: null })
    expect(service('sleeper').status_text).toBe('Does not exist')
  })

  it('never counts an event twice when a heartbeat and an event post race', () => {
    const event = fixture('12-event-program-status-failed')
    t.post(event, T0)
    t.post(fixture('02-status-heartbeat'), T0)
    t.post(event, T0 + 10)
    expect(events().filter((e) => e.class === 2097152)).toHaveLength(1)
    expect(rows('SELECT COUNT(*) AS n FROM event WHERE class = ?', EventClassId.Heartbeat)).toEqual([{ n: 0 }])
  })
})
