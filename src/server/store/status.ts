// The reads behind status/hosts/{list,get,summary}. Everything comes from the rows the collector keeps
// current (host LED, texts and counts, services, latest statistics), so no read scans history. Id lists
// travel as one parameter (the dialect's idList): the SQL text does not vary with their length, which keeps
// compiled statements cached and never nears SQLite's parameter limit.
import { sql, type Expression, type SelectQueryBuilder } from 'kysely'
import type { HostSortKey, HostStatusEntry, SortDir } from '../../shared/api/status'
import type { Dialect } from './dialect'
import type { Schema } from './schema'
import { statisticKey, type StatisticKey } from './latest-statistics'
import type { QueryBuilder, SqlRunner } from './sql'

/** Which hosts a status read covers; every field narrows the selection, undefined ones do not. */
export interface HostSelection {
  /** The hosts the caller may view; undefined: every host. */
  visible?: readonly number[]
  hostIds?: readonly number[]
  groupIds?: readonly number[]
  /** Case-insensitive substring of the host name. */
  pattern?: string
  leds?: readonly number[]
  statusIds?: readonly number[]
  platform?: string
  machine?: string
}

/** A host of status/hosts/list: the row is the answer's record as it is. */
export type HostStatusRow = HostStatusEntry

/** Hosts in one state, for the summary's categories. */
export interface HostConditionCount {
  status: number
  heartbeat: number
  total: number
  failed: number
  changed: number
  unmonitored: number
  hosts: number
}

export interface HostDetailRow {
  id: number
  hostname: string
  led: number
  status_text: string
  status: number
  heartbeat: number
  platform_name: string
  platform_release: string
  platform_version: string
  platform_machine: string
  cpu_count: number
  memory_kb: number
  swap_kb: number
  agent_id: string
  agent_version: string
  control_file: string
  poll: number
  start_delay: number
  agent_uptime: number
}

export interface ServiceRow {
  id: number
  name: string
  name_id: number
  type: number
  monitor: number
  monitor_mode: number
  on_reboot: number
  status_text: string
  led: number
  events_count: number
  every: string | null
  /** Encoded latest statistics (latest-statistics.ts) */
  statistics: string
}

export interface ServiceGroupRow {
  service_name_id: number
  name: string
}

export type HostQuery<O> = SelectQueryBuilder<Schema, 'host', O>

// cpu and mem are null until the agent reports them; the API shows, and sorts, them as 0.
const cpuOrZero = sql<number>`coalesce(host.cpu, 0)`
const memOrZero = sql<number>`coalesce(host.mem, 0)`

export const sortExpression: Record<HostSortKey, Expression<unknown>> = {
  led: sql.ref('host.led'),
  hostname: sql.ref('host.hostname'),
  events: sql.ref('host.events_count'),
  cpu: cpuOrZero,
  mem: memOrZero,
  status: sql.ref('host.status_text')
}

export class StatusRepository {
  private readonly hostById
  private readonly servicesOfHost
  private readonly serviceGroupsOfHost
  private readonly statisticIdsOfHost

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.hostById = sql.prepare((p: { id: number }) =>
      db
        .selectFrom('host')
        .select([
          'id',
          'hostname',
          'led',
          'status_text',
          'status',
          'heartbeat',
          'platform_name',
          'platform_release',
          'platform_version',
          'platform_machine',
          'cpu_count',
          'memory_kb',
          'swap_kb',
          'agent_id',
          'agent_version',
          'control_file',
          'poll',
          'start_delay',
          'agent_uptime'
        ])
        .where('id', '=', p.id)
    )
    this.servicesOfHost = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('service')
        .select([
          'id',
          'name',
          'name_id',
          'type',
          'monitor',
          'monitor_mode',
          'on_reboot',
          'status_text',
          'led',
          'events_count',
          'every',
          'statistics'
        ])
        .where('host_id', '=', p.hostId)
        .orderBy('position')
    )
    this.statisticIdsOfHost = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('statistic')
        .innerJoin('service', 'service.id', 'statistic.service_id')
        .select(['statistic.id', 'statistic.service_id', 'statistic.type', 'statistic.descriptor'])
        .where('service.host_id', '=', p.hostId)
    )
    this.serviceGroupsOfHost = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('service_group')
        .innerJoin('service_group_member', 'service_group_member.group_id', 'service_group.id')
        .select(['service_group_member.service_name_id', 'service_group.name'])
        .where('service_group.host_id', '=', p.hostId)
        .orderBy('service_group.name')
    )
  }

  countHosts(selection: HostSelection): number {
    const query = selected(this.sql.dialect, this.db.selectFrom('host'), selection).select((eb) => eb.fn.countAll<number>().as('n'))
    return this.sql.first(query)!.n
  }

  /** One page of status entries; ties are broken by name, then id, so pages never overlap. */
  hostPage(selection: HostSelection, sort: HostSortKey, dir: SortDir, offset: number, limit: number): HostStatusRow[] {
    let query = statusColumns(selected(this.sql.dialect, this.db.selectFrom('host'), selection)).orderBy(sortExpression[sort], dir)
    if (sort !== 'hostname') query = query.orderBy('host.hostname')
    return this.sql.all(query.orderBy('host.id').limit(limit).offset(offset))
  }

  /** Selected hosts grouped by everything their summary category depends on. */
  hostConditions(selection: HostSelection): HostConditionCount[] {
    const query = selected(this.sql.dialect, this.db.selectFrom('host'), selection)
      .select((eb) => [
        'host.status',
        'host.heartbeat',
        'host.services_total as total',
        'host.services_failed as failed',
        'host.services_changed as changed',
        'host.services_unmonitored as unmonitored',
        eb.fn.countAll<number>().as('hosts')
      ])
      .groupBy([
        'host.status',
        'host.heartbeat',
        'host.services_total',
        'host.services_failed',
        'host.services_changed',
        'host.services_unmonitored'
      ])
    return this.sql.all(query)
  }

  /** The stable ids of the host's statistics, by service id and then statisticKey(type, descriptor). */
  statisticIds(hostId: number): Map<number, Map<StatisticKey, number>> {
    const ids = new Map<number, Map<StatisticKey, number>>()
    for (const st of this.statisticIdsOfHost.all({ hostId })) {
      let ofService = ids.get(st.service_id)
      if (!ofService) ids.set(st.service_id, (ofService = new Map()))
      ofService.set(statisticKey(st.type, st.descriptor), st.id)
    }
    return ids
  }

  host(id: number): HostDetailRow | undefined {
    return this.hostById.get({ id })
  }

  /** The host's services in the agent's order. */
  services(hostId: number): ServiceRow[] {
    return this.servicesOfHost.all({ hostId })
  }

  /** Service group memberships of the host, by service name id. */
  serviceGroups(hostId: number): ServiceGroupRow[] {
    return this.serviceGroupsOfHost.all({ hostId })
  }
}

/** The columns of a status/hosts/list record. */
export function statusColumns<O>(query: HostQuery<O>) {
  return query.select([
    'host.id',
    'host.led',
    'host.hostname',
    'host.events_count as events',
    cpuOrZero.as('cpu'),
    memOrZero.as('mem'),
    'host.status_text as status',
    'host.status as statusid',
    'host.heartbeat'
  ])
}

/** Narrows a host query to the selection. */
export function selected<O>(d: Dialect, query: HostQuery<O>, s: HostSelection): HostQuery<O> {
  let q = query
  if (s.visible) q = q.where('host.id', 'in', d.idList(s.visible))
  if (s.hostIds?.length) q = q.where('host.id', 'in', d.idList(s.hostIds))
  if (s.groupIds?.length) {
    const members = s.groupIds
    q = q.where('host.id', 'in', (eb) =>
      eb.selectFrom('host_group_member').select('host_group_member.host_id').where('host_group_member.group_id', 'in', d.idList(members))
    )
  }
  if (s.pattern) q = q.where(d.contains('host.hostname', s.pattern))
  if (s.leds?.length) q = q.where('host.led', 'in', d.idList(s.leds))
  if (s.statusIds?.length) q = q.where('host.status', 'in', d.idList(s.statusIds))
  if (s.platform) q = q.where(d.equalsIgnoringCase('host.platform_name', s.platform))
  if (s.machine) q = q.where(d.equalsIgnoringCase('host.platform_machine', s.machine))
  return q
}
