// Applies one collector message to the store in one transaction (agent protocol §6).
import { HostStatus, MonitorState, ServiceType, Stat } from '../../shared/codes'
import type { SecretBox } from '../auth/secret-box'
import { activeErrorsByService, isAgentStop } from '../domain/event-rules'
import { countServices, hostLed, hostStatusText, type ServiceCounts } from '../domain/host-state'
import { nextHostState, storedCounts } from '../domain/host-transition'
import { serviceLed, serviceStatusText } from '../domain/service-state'
import { eventChange } from '../live/changes'
import type { ChangeFeed } from '../live/change-feed'
import type { LiveChange } from '../../shared/live'
import type { CallBackColumn, HostReport, ReportingHost } from '../store/hosts'
import { encodeStatistic, statisticKey, type StatisticKey } from '../store/latest-statistics'
import type { ServiceState } from '../store/services'
import type { Store } from '../store/store'
import { EventRecorder } from '../events/event-recorder'
import { heartbeatBackEvent } from '../events/heartbeat-events'
import { RawSampleWriter } from '../history/raw-samples'
import { knownService, KnownServices, type KnownService } from './known-services'
import { StatisticPass, StatisticSlots } from './statistic-slots'
import type { MonitMessage, ServiceGroup, ServiceSnapshot, Statistic } from '../monit/message'
import { MAX_HOST_GROUPS } from '../monit/message-limits'
import { MAX_GROUPS_CREATED_BY_AGENTS } from '../store/declared-groups'

/** The caller may not report for this host (the collector permission is per host). */
export class ReportRefused extends Error {}

export interface IngestResult {
  hostId: number
  registered: boolean
  eventStored: boolean
  /** Worth a log line: the message came from elsewhere, moved a pinned call-back (see callBack), or named too many host groups. */
  notice?: string
  /** Whether the host's group memberships changed (the groups its agent declares). */
  groupsChanged: boolean
}

export class Ingest {
  private readonly events: EventRecorder
  /** Last service-group layout written per host, so unchanged groups cost no writes. */
  private readonly groupLayouts = new Map<number, readonly ServiceGroup[]>()
  /** The agent password of each host, opened once: decrypting on every message would be waste. */
  private readonly openedPasswords = new Map<number, { sealed: string; plain: string }>()
  private readonly known: KnownServices
  /** The snapshot time this ingest last stored per host: another value in the host row means another writer. */
  private readonly writtenSnapshots = new Map<number, number>()
  /** Hosts whose agent declares no host group, as stored: a message declaring none (all before 5.34) costs no query. */
  private readonly declaringNoGroups = new Set<number>()
  /** Hosts whose agent declared more host groups than are kept, said once in the log per run. */
  private readonly toldOfTooManyGroups = new Set<number>()
  /** The message's history samples, packed into its one raw history row. */
  private readonly samples = new RawSampleWriter()
  /** Takes each statistic of a service once per message (see StatisticPass). */
  private readonly pass = new StatisticPass()
  /** Changes of the message being applied, published once its transaction committed; undefined without a feed. */
  private changes: LiveChange[] | undefined
  /** Inside `together`: the changes of the messages applied so far, published when the one commit is done. */
  private uncommitted: LiveChange[] | undefined
  /** Inside `together`: host rows read ahead by agent id (null: not registered), each taken by one message. */
  private readAhead = new Map<string, ReportingHost | null>()

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretBox,
    private readonly feed?: ChangeFeed
  ) {
    this.events = new EventRecorder(store)
    this.known = new KnownServices(store.services, store.history.series)
  }

  /**
   * `mayReport` decides, from the host id (undefined for an agent not registered yet), whether the
   * caller may report for it; a refusal throws ReportRefused and stores nothing.
   *
   * Inside `together` the message joins that transaction, without a savepoint of its own (one costs
   * about as much as a tenth of the message): a throw other than ReportRefused must then abort the
   * whole transaction, which `together`'s caller rolls back.
   */
  apply(msg: MonitMessage, nowMs: number, mayReport: (hostId: number | undefined) => boolean = () => true, source = ''): IngestResult {
    const changes: LiveChange[] | undefined = this.feed ? [] : undefined
    this.changes = changes
    const uncommitted = this.uncommitted
    if (uncommitted) {
      const result = this.applyInTransaction(msg, nowMs, mayReport, source)
      if (changes?.length) uncommitted.push(...changes)
      return result
    }
    try {
      const result = this.store.transaction(() => this.events.inBatch(() => this.applyInTransaction(msg, nowMs, mayReport, source)))
      if (changes?.length) this.feed?.publishAll(changes)
      return result
    } catch (err) {
      if (!(err instanceof ReportRefused)) this.forgetCaches()
      throw err
    }
  }

  /**
   * Runs `applyEach`, which applies several messages, in one transaction with one commit (one WAL
   * write instead of one per message). Their live changes are published after that commit; if
   * `applyEach` throws or the commit fails, nothing of it is stored.
   */
  together<T>(applyEach: () => T): T {
    const uncommitted: LiveChange[] = []
    this.uncommitted = uncommitted
    try {
      const result = this.store.transaction(() => this.events.inBatch(applyEach))
      this.uncommitted = undefined
      this.readAhead.clear()
      if (uncommitted.length) this.feed?.publishAll(uncommitted)
      return result
    } catch (err) {
      this.uncommitted = undefined
      this.forgetCaches()
      throw err
    }
  }

  /**
   * Inside `together`, before its messages: reads (and locks) the hosts of these agents in one query
   * instead of one per message, a round trip each on PostgreSQL. A message takes its host's row once; an
   * agent's second message in the batch reads the row its first one wrote.
   */
  readHostsAhead(agentIds: readonly string[]): void {
    this.readAhead.clear()
    for (const agentId of agentIds) this.readAhead.set(agentId, null)
    for (const { agent_id, ...host } of this.store.hosts.reportingHosts(agentIds)) this.readAhead.set(agent_id, host)
  }

  /** Memory may be ahead of the store after a rollback: read it again when next needed. */
  private forgetCaches(): void {
    this.known.forget()
    this.groupLayouts.clear()
    this.declaringNoGroups.clear()
    // A notice of the rolled-back message was never logged: the message stored again tells it.
    this.toldOfTooManyGroups.clear()
    this.writtenSnapshots.clear()
    this.readAhead.clear()
  }

  /**
   * Several instances on one PostgreSQL database collect for the same hosts: when the host's last message
   * was applied by another, what this one remembers of the host's services and groups is stale.
   */
  private forgetIfWrittenElsewhere(host: ReportingHost): void {
    if (this.writtenSnapshots.get(host.id) === host.snapshot_usec) return
    this.known.forgetHost(host.id)
    this.groupLayouts.delete(host.id)
    this.declaringNoGroups.delete(host.id)
  }

  private reportingHost(agentId: string): ReportingHost | undefined {
    const ahead = this.readAhead.get(agentId)
    if (ahead === undefined) return this.store.hosts.reportingHost(agentId)
    this.readAhead.delete(agentId)
    return ahead ?? undefined
  }

  private applyInTransaction(
    msg: MonitMessage,
    nowMs: number,
    mayReport: (hostId: number | undefined) => boolean,
    source: string
  ): IngestResult {
    const now = Math.floor(nowMs / 1000)
    const found = this.reportingHost(msg.agent.id)
    if (!mayReport(found?.id)) throw new ReportRefused(`may not report for agent ${msg.agent.id}`)
    if (found) this.forgetIfWrittenElsewhere(found)
    const host = found ?? this.store.hosts.register(msg.agent.id, msg.server.localHostname || msg.agent.id, now)
    const ignored = host.status === HostStatus.Ignored
    const hostname = reportedHostname(host, msg)
    const changes = this.changes
    if (!found) changes?.push({ kind: 'host-registered', hostId: host.id, hostname })

    // Concurrent or delayed posts: a snapshot older than the one applied must not overwrite it.
    const snapshotUsec = newestCollection(msg.services)
    const fresh = snapshotUsec >= host.snapshot_usec
    this.samples.reset()
    const counts = fresh ? this.applyServices(host.id, hostname, msg) : storedCounts(host)
    const groups = fresh ? this.applyHostGroups(host.id, msg) : { changed: false }
    if (!fresh) this.sampleLateSnapshot(host.id, msg)
    const samples = this.samples.finish()
    // The agent's collection time orders history; an agent clock ahead of ours is taken as now.
    if (samples) this.store.history.raw.append(host.id, Math.min(Math.floor(snapshotUsec / 1_000_000), now), samples)

    let eventStored = false
    if (msg.event && !ignored) {
      const eventId = this.events.record(host.id, msg.event, msg.agent.incarnation)
      eventStored = eventId !== undefined
      if (eventId !== undefined) changes?.push(eventChange(host.id, hostname, eventId, msg.event))
    }
    const heartbeatBack = host.heartbeat === 0 && !ignored
    if (heartbeatBack) {
      const back = heartbeatBackEvent(nowMs)
      const eventId = this.events.record(host.id, back)
      if (eventId !== undefined) changes?.push(eventChange(host.id, hostname, eventId, back))
      this.store.intervals.close(host.id, null, now)
    }

    const stopped = msg.event !== undefined && isAgentStop(msg.event, msg.agent.incarnation)
    const state = nextHostState(host, { kind: stopped ? 'stop' : 'report', nowMs, poll: msg.server.poll, services: counts })
    const { led, status_text: statusText } = state
    if (changes) {
      if (heartbeatBack) changes.push({ kind: 'heartbeat', hostId: host.id, hostname, alive: true, led, status: statusText })
      // The stored LED and text follow from the host's stored condition: no read needed to compare.
      const before = { status: host.status, heartbeat: host.heartbeat, ...storedCounts(host) }
      if (!found || hostLed(before) !== led || hostStatusText(before) !== statusText) {
        changes.push({ kind: 'host-changed', hostId: host.id, hostname, led, status: statusText })
      }
    }
    const load = fresh ? systemLoad(msg.services) : { cpu: host.cpu, mem: host.mem }
    const storedSnapshotUsec = fresh ? snapshotUsec : host.snapshot_usec
    this.writtenSnapshots.set(host.id, storedSnapshotUsec)
    const reach = callBack(host, msg, source)
    this.store.hosts.report(
      host.id,
      this.hostReport(host, msg, hostname, reach.columns, {
        ...state,
        last_modified: now,
        snapshot_usec: storedSnapshotUsec,
        services_total: counts.total,
        services_failed: counts.failed,
        services_changed: counts.changed,
        services_unmonitored: counts.unmonitored,
        cpu: load.cpu,
        mem: load.mem
      })
    )
    const notices = [reach.notice, groups.notice].filter((n) => n !== undefined)
    return {
      hostId: host.id,
      registered: !found,
      eventStored,
      notice: notices.length > 0 ? `agent ${msg.agent.id} (${hostname}): ${notices.join('; ')}` : undefined,
      groupsChanged: groups.changed
    }
  }

  /**
   * Keeps the host's memberships in step with the host groups its agent declares (5.34+ `with
   * hostgroups`); says once per host when some were left out.
   */
  private applyHostGroups(hostId: number, msg: MonitMessage): { changed: boolean; notice?: string } {
    const names = msg.hostGroups
    if (names.length === 0 && this.declaringNoGroups.has(hostId)) return { changed: false }
    const { changed, notCreated } = this.store.declaredGroups.declare(hostId, names)
    if (changed) this.events.alertConfigMayHaveChanged()
    if (names.length === 0) this.declaringNoGroups.add(hostId)
    else this.declaringNoGroups.delete(hostId)
    if ((msg.hostGroupsLeftOut === 0 && notCreated.length === 0) || this.toldOfTooManyGroups.has(hostId)) return { changed }
    this.toldOfTooManyGroups.add(hostId)
    const reasons: string[] = []
    if (msg.hostGroupsLeftOut > 0) reasons.push(`${msg.hostGroupsLeftOut} past the ${MAX_HOST_GROUPS} a message may declare`)
    if (notCreated.length > 0) {
      reasons.push(`${notCreated.length} not created as ${MAX_GROUPS_CREATED_BY_AGENTS} host groups exist (${quoted(notCreated)})`)
    }
    return { changed, notice: `it declares more host groups than are kept: ${reasons.join(', ')}; said once` }
  }

  /**
   * The host row after this message: what the agent tells about itself (identity, platform, how to call
   * it back) and the collector's bookkeeping. One flat object of one shape: it is built for every message.
   */
  private hostReport(
    host: ReportingHost,
    msg: MonitMessage,
    hostname: string,
    reach: CallBackColumns,
    b: Pick<HostReport, BookkeepingColumns>
  ): HostReport {
    const { server, platform } = msg
    const { agent_user, agent_password } = this.credentials(host, msg)
    return {
      hostname,
      ...reach,
      unix_socket: server.unixSocket ?? null,
      agent_user,
      agent_password,
      poll: server.poll,
      start_delay: server.startDelay,
      agent_version: msg.agent.version,
      incarnation: msg.agent.incarnation,
      agent_uptime: server.uptime,
      control_file: server.controlFile,
      platform_name: platform.name,
      platform_release: platform.release,
      platform_version: platform.version,
      platform_machine: platform.machine,
      cpu_count: platform.cpu,
      memory_kb: platform.memory,
      swap_kb: platform.swap,
      status: b.status,
      inactive_since: b.inactive_since,
      last_modified: b.last_modified,
      heartbeat: b.heartbeat,
      heartbeat_deadline_ms: b.heartbeat_deadline_ms,
      snapshot_usec: b.snapshot_usec,
      services_total: b.services_total,
      services_failed: b.services_failed,
      services_changed: b.services_changed,
      services_unmonitored: b.services_unmonitored,
      led: b.led,
      status_text: b.status_text,
      cpu: b.cpu,
      mem: b.mem
    }
  }

  /** The call-back credentials the agent reports, unless an administrator pinned others. */
  private credentials(host: ReportingHost, msg: MonitMessage): Pick<HostReport, 'agent_user' | 'agent_password'> {
    const kept = { agent_user: host.agent_user, agent_password: host.agent_password }
    if (host.credentials_pinned) return kept
    const reported = msg.server.credentials ?? { username: '', password: '' }
    let opened = this.openedPasswords.get(host.id)
    if (opened?.sealed !== host.agent_password) {
      opened = { sealed: host.agent_password, plain: this.secrets.open(host.agent_password) }
      this.openedPasswords.set(host.id, opened)
    }
    // Re-encrypt only when the password changed: sealing is randomised, so equal text differs.
    if (reported.password === opened.plain) return { ...kept, agent_user: reported.username }
    return { agent_user: reported.username, agent_password: this.secrets.seal(reported.password) }
  }

  /** Replaces the host's services with the snapshot's; returns the service counts for the host LED. */
  private applyServices(hostId: number, hostname: string, msg: MonitMessage): ServiceCounts {
    const { services } = this.store
    const changes = this.changes
    const known = this.known.of(hostId)
    const next = new Map<string, KnownService>()
    const stateChanges: KnownService[] = []
    const activeErrors = this.activeErrorsWhileInitializing(hostId, msg)
    for (const [position, snapshot] of msg.services.entries()) {
      if (next.has(snapshot.name)) continue
      const prev = known.get(snapshot.name)
      const state = toServiceState(snapshot, position, services.nameId(snapshot.name), activeErrors?.get(snapshot.name) ?? 0)
      if (prev && prev.collectedUsec > state.collectedUsec) {
        next.set(snapshot.name, prev)
        this.sampleKnown(prev.statisticSlots, snapshot.statistics)
        continue
      }
      const id = prev?.id ?? services.insert(hostId, state)
      // One pass per statistic: its id, its history sample and its part of the latest-value encoding.
      const slots = prev?.statisticSlots ?? this.registerStatistics(id, snapshot.statistics)
      this.pass.begin()
      let encoded = ''
      for (let position = 0; position < snapshot.statistics.length; position++) {
        const st = snapshot.statistics[position]
        const key = statisticKey(st.type, st.descriptor)
        let slot = slots.find(key, position)
        if (slot < 0) slot = slots.add(key, this.store.history.series.register(id, st.type, st.descriptor))
        // A service's statistics are stored once each (type, descriptor): the first one counts.
        if (!this.pass.take(slot)) continue
        if (st.text === undefined) this.samples.add(slots.id(slot), st.value)
        encoded += (encoded === '' ? '' : ',') + encodeStatistic(st.type, st.descriptor, st.value, st.text)
      }
      state.statistics = `[${encoded}]`
      const current = knownService(id, state, slots)
      if (changes && (!prev || prev.led !== state.led || prev.statusText !== state.statusText)) {
        changes.push({ kind: 'service-changed', hostId, hostname, service: state.name, led: state.led, status: state.statusText })
      }
      if (!prev || !sameIdentity(prev, state)) services.update(current)
      else if (!sameState(prev, state) || prev.statistics !== state.statistics) stateChanges.push(current)
      next.set(snapshot.name, current)
    }
    services.updateStates(stateChanges)
    // Services missing from a full snapshot were removed from the agent's configuration.
    for (const [name, gone] of known) if (!next.has(name)) services.delete(gone.id)
    this.known.set(hostId, next)

    const layout = this.groupLayouts.get(hostId)
    if (!layout || !sameGroups(layout, msg.serviceGroups)) {
      services.replaceGroups(hostId, msg.serviceGroups)
      this.groupLayouts.set(hostId, msg.serviceGroups)
    }
    return countServices([...next.values()])
  }

  /**
   * The failures the host's events report per service, read only when a service of the message is
   * initializing: only then do they decide its state (domain/service-state), and most messages have none.
   */
  private activeErrorsWhileInitializing(hostId: number, msg: MonitMessage): Map<string, number> | undefined {
    if (!msg.services.some((s) => s.monitor & MonitorState.Initializing)) return undefined
    return activeErrorsByService(this.store.events.statesOfHost(hostId), msg.event)
  }

  /** The statistics of a new service registered together (one statement on PostgreSQL instead of one each). */
  private registerStatistics(serviceId: number, statistics: readonly Statistic[]): StatisticSlots {
    const distinct = new Map<StatisticKey, Statistic>()
    for (const st of statistics) {
      const key = statisticKey(st.type, st.descriptor)
      if (!distinct.has(key)) distinct.set(key, st)
    }
    const ids = this.store.history.series.registerAll(serviceId, [...distinct.values()])
    return new StatisticSlots([...distinct.keys()], ids)
  }

  /** A snapshot older than the one applied changes no state, but its samples are history all the same. */
  private sampleLateSnapshot(hostId: number, msg: MonitMessage): void {
    const known = this.known.of(hostId)
    for (const snapshot of msg.services) {
      const prev = known.get(snapshot.name)
      if (prev) this.sampleKnown(prev.statisticSlots, snapshot.statistics)
    }
  }

  /** Samples of the statistics that already have ids, the first of each only; text statistics are not history. */
  private sampleKnown(slots: StatisticSlots, statistics: readonly Statistic[]): void {
    this.pass.begin()
    for (let position = 0; position < statistics.length; position++) {
      const st = statistics[position]
      const slot = slots.find(statisticKey(st.type, st.descriptor), position)
      if (slot < 0 || !this.pass.take(slot)) continue
      if (st.text === undefined) this.samples.add(slots.id(slot), st.value)
    }
  }
}

/** Host columns set from the collector's own bookkeeping rather than from what the agent tells. */
type BookkeepingColumns =
  | 'status'
  | 'inactive_since'
  | 'last_modified'
  | 'heartbeat'
  | 'heartbeat_deadline_ms'
  | 'snapshot_usec'
  | 'services_total'
  | 'services_failed'
  | 'services_changed'
  | 'services_unmonitored'
  | 'led'
  | 'status_text'
  | 'cpu'
  | 'mem'

/**
 * Whether a service is as stored, ignoring when it was collected: then its row needs no write. The
 * stored collection time then keeps the time of the last change, which still orders late snapshots.
 */
function sameState(prev: KnownService, s: ServiceState): boolean {
  return (
    prev.status === s.status &&
    prev.statusHint === s.statusHint &&
    prev.monitor === s.monitor &&
    prev.monitorMode === s.monitorMode &&
    prev.onReboot === s.onReboot &&
    prev.pendingAction === s.pendingAction &&
    prev.every === s.every &&
    // The same bits may read otherwise once the service's events changed (domain/service-state).
    prev.led === s.led &&
    prev.statusText === s.statusText
  )
}

function sameGroups(a: readonly ServiceGroup[], b: readonly ServiceGroup[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (g, i) =>
        g.name === b[i].name && g.services.length === b[i].services.length && g.services.every((name, j) => name === b[i].services[j])
    )
  )
}

/** Whether the service keeps its type and place; only then can a write leave those columns alone. */
function sameIdentity(prev: KnownService, s: ServiceState): boolean {
  return prev.type === s.type && prev.position === s.position && prev.nameId === s.nameId
}

/** The service's state; `statistics` is filled in once encoded. */
function toServiceState(s: ServiceSnapshot, position: number, nameId: number, activeErrors: number): ServiceState {
  const condition = { monitor: s.monitor, status: s.status, statusHint: s.statusHint, pendingAction: s.pendingAction, activeErrors }
  return {
    nameId,
    name: s.name,
    type: s.type,
    position,
    collectedUsec: s.collectedSec * 1_000_000 + s.collectedUsec,
    status: s.status,
    statusHint: s.statusHint,
    monitor: s.monitor,
    monitorMode: s.monitorMode,
    onReboot: s.onReboot,
    pendingAction: s.pendingAction,
    every: s.every ?? null,
    led: serviceLed(condition),
    statusText: serviceStatusText(condition),
    statistics: '[]'
  }
}

function newestCollection(services: readonly ServiceSnapshot[]): number {
  let newest = 0
  for (const s of services) newest = Math.max(newest, s.collectedSec * 1_000_000 + s.collectedUsec)
  return newest
}

/** The host's name after this message: the agent's, unless an administrator pinned it. */
type CallBackColumns = Pick<HostReport, CallBackColumn>

/**
 * Where the server calls the agent back, and where its messages come from. The agent's `<httpd>` is the
 * call-back, and the message's source its known address, until an administrator pins the host's
 * credentials (admin/hosts/update): from then on both stay as they were, as anyone with the collector
 * password (it is in every monitrc) could post a message for a known agent id naming their own address
 * and have the pinned credentials sent there. What differs is kept (reported_*, last_source_ipaddr) and
 * shown on the host until an administrator accepts it, and said once in the log.
 */
function callBack(host: ReportingHost, msg: MonitMessage, source: string): { columns: CallBackColumns; notice?: string } {
  const httpd = msg.server.httpd
  const reported = { reported_ipaddr: httpd?.address ?? '', reported_port: httpd?.port ?? -1, reported_ssl: httpd?.ssl ? 1 : 0 }
  const known = host.source_ipaddr || source
  if (host.credentials_pinned !== 1) {
    return {
      columns: {
        ipaddr_in: reported.reported_ipaddr,
        port_in: reported.reported_port,
        ssl_in: reported.reported_ssl,
        ...reported,
        source_ipaddr: source || known,
        last_source_ipaddr: ''
      },
      notice:
        source !== '' && host.source_ipaddr !== '' && source !== host.source_ipaddr
          ? `messages now come from ${source} (were from ${host.source_ipaddr})`
          : undefined
    }
  }
  const otherSource = source !== '' && source !== known
  const columns = {
    ipaddr_in: host.ipaddr_in,
    port_in: host.port_in,
    ssl_in: host.ssl_in,
    ...reported,
    source_ipaddr: known,
    last_source_ipaddr: otherSource ? source : host.last_source_ipaddr
  }
  const notices: string[] = []
  if (otherSource && source !== host.last_source_ipaddr)
    notices.push(`a message came from ${source}, its messages are known to come from ${known}`)
  const moved =
    reported.reported_ipaddr !== host.ipaddr_in || reported.reported_port !== host.port_in || reported.reported_ssl !== host.ssl_in
  const news =
    reported.reported_ipaddr !== host.reported_ipaddr ||
    reported.reported_port !== host.reported_port ||
    reported.reported_ssl !== host.reported_ssl
  if (moved && news) {
    notices.push(
      `it reports its httpd at ${describeHttpd(reported.reported_ipaddr, reported.reported_port, reported.reported_ssl)}; ` +
        `its credentials are pinned, so it is still called at ${describeHttpd(host.ipaddr_in, host.port_in, host.ssl_in)}`
    )
  }
  const notice = notices.length > 0 ? `${notices.join('; ')} (shown on the host until an administrator accepts it)` : undefined
  return { columns, notice }
}

/** The first few names, for a log line whatever the count. */
function quoted(names: readonly string[]): string {
  const shown = names.slice(0, 3).map((n) => `'${n}'`)
  return names.length > shown.length ? `${shown.join(', ')} …` : shown.join(', ')
}

function describeHttpd(address: string, port: number, ssl: number): string {
  return address === '' || port <= 0 ? 'no TCP address' : `${address}:${port}${ssl ? ' with TLS' : ''}`
}

function reportedHostname(host: ReportingHost, msg: MonitMessage): string {
  return host.keepname ? host.hostname : msg.server.localHostname || host.hostname
}

/** Busy CPU (everything but idle and I/O wait) and used memory of the host's system service. */
const busyCpu = new Set<number>([Stat.CpuUser, Stat.CpuSystem, Stat.CpuNice, Stat.CpuHardIrq, Stat.CpuSoftIrq, Stat.CpuSteal])

function systemLoad(services: readonly ServiceSnapshot[]): { cpu: number | null; mem: number | null } {
  const system = services.find((s) => s.type === ServiceType.System && s.statistics.length > 0)
  if (!system) return { cpu: null, mem: null }
  let cpu = 0
  let mem: number | null = null
  for (const st of system.statistics) {
    if (busyCpu.has(st.type)) cpu += st.value
    else if (st.type === Stat.MemoryPercent) mem = st.value
  }
  return { cpu: Math.round(cpu * 10) / 10, mem }
}
