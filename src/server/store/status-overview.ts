// The reads behind status/hosts/overview and status/services/list: the hosts list with its failing
// services and since when, and services across hosts. "Since when" is the oldest open failure event
// (event_active index: a few rows per failing service), or for a silent host its last report. A host or
// service carries the end of the alert mute in force on it (alert_mute_host index: a few rows per host).
import { sql, type Expression } from 'kysely'
import type { SortDir } from '../../shared/api/status'
import type { FailingService, OverviewSortKey, ServiceListSortKey } from '../../shared/api/overview'
import type { TrendInterval } from '../domain/trend'
import { selected, sortExpression, statusColumns, type HostSelection, type HostStatusRow } from './status'
import type { QueryBuilder, SqlRunner } from './sql'

export interface HostOverviewRow extends HostStatusRow {
  lastreport: number
  since: number | null
  muted: number | null
  /** Unix seconds of its first report (the row's creation). */
  firstseen: number
}

export interface FailingServiceRow extends FailingService {
  host_id: number
}

export interface ServiceSelection {
  hosts: HostSelection
  /** Case-insensitive substring of the service name. */
  pattern?: string
  leds?: readonly number[]
}

export interface ServiceOverviewRow {
  hostid: number
  hostname: string
  heartbeat: number
  id: number
  name: string
  type: number
  led: number
  status: string
  since: number | null
  lastreport: number
  muted: number | null
}

/** An open failure of a service that has since recovered (an older snapshot arriving late) does not count. */
const hostSince = sql<number | null>`CASE WHEN host.heartbeat = 0 THEN host.last_modified ELSE
  (SELECT min(event.date) FROM event JOIN service ON service.host_id = event.host_id AND service.name_id = event.service_name_id
    WHERE event.host_id = host.id AND event.active = 1 AND service.led IN (0, 1)) END`
/** The latest end of the whole-host mutes in force at `now`. */
const hostMutedUntil = (now: number) => sql<number | null>`(SELECT max(alert_mute.until) FROM alert_mute
  WHERE alert_mute.host_id = host.id AND alert_mute.service_name_id IS NULL AND alert_mute.until > ${now})`
/** The latest end of the mutes in force at `now` on the service or its whole host. */
const serviceMutedUntil = (now: number) => sql<number | null>`(SELECT max(alert_mute.until) FROM alert_mute
  WHERE alert_mute.host_id = service.host_id AND alert_mute.until > ${now}
    AND (alert_mute.service_name_id IS NULL OR alert_mute.service_name_id = service.name_id))`
/** Silent hosts, then red, orange, green, gray. */
const hostSeverity = sql<number>`CASE WHEN host.led = 0 AND host.heartbeat = 0 THEN 0 ELSE host.led + 1 END`
/** Red, orange, gray (not monitored), then green. */
const serviceSeverity = sql<number>`CASE service.led WHEN 2 THEN 3 WHEN 3 THEN 2 ELSE service.led END`

const serviceSort: Record<Exclude<ServiceListSortKey, 'attention'>, Expression<unknown>> = {
  hostname: sql.ref('host.hostname'),
  name: sql.ref('service.name'),
  type: sql.ref('service.type'),
  status: sql.ref('service.status_text'),
  since: sql.ref('active_since.since')
}

export class StatusOverviewRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /**
   * One page of hosts with their last report, since when they need attention and until when they are muted
   * (`now`, Unix seconds); ties broken by name, then id.
   */
  hostPage(selection: HostSelection, sort: OverviewSortKey, dir: SortDir, offset: number, limit: number, now: number): HostOverviewRow[] {
    let query = statusColumns(selected(this.sql.dialect, this.db.selectFrom('host'), selection)).select([
      'host.last_modified as lastreport',
      hostSince.as('since'),
      hostMutedUntil(now).as('muted'),
      'host.created_at as firstseen'
    ])
    if (sort === 'attention') {
      // The longest failing first within each severity, whatever the direction of the severities.
      query = query.orderBy(hostSeverity, dir).orderBy(sql.ref('since'), (ob) => ob.asc().nullsLast())
    } else if (sort === 'lastreport') {
      query = query.orderBy('host.last_modified', dir)
    } else {
      query = query.orderBy(sortExpression[sort], dir)
    }
    if (sort !== 'hostname') query = query.orderBy('host.hostname')
    return this.sql.all(query.orderBy('host.id').limit(limit).offset(offset))
  }

  /** The red and orange services of these hosts, red first, each in agent order. */
  failingServices(hostIds: readonly number[]): FailingServiceRow[] {
    if (hostIds.length === 0) return []
    return this.sql.all(
      this.db
        .selectFrom('service')
        .leftJoin(this.activeSince(hostIds), (join) =>
          join.onRef('active_since.host_id', '=', 'service.host_id').onRef('active_since.service_name_id', '=', 'service.name_id')
        )
        .select(['service.host_id', 'service.name', 'service.led', 'active_since.since'])
        .where('service.host_id', 'in', this.sql.dialect.idList(hostIds))
        .where('service.led', 'in', [0, 1])
        .orderBy('service.host_id')
        .orderBy('service.led')
        .orderBy('service.position')
    )
  }

  /** The state intervals of these hosts still open or ended after `since` (state_interval_host index). */
  downIntervals(hostIds: readonly number[], since: number): (TrendInterval & { host_id: number })[] {
    if (hostIds.length === 0) return []
    return this.sql.all(
      this.db
        .selectFrom('state_interval')
        .select(['host_id', 'service_name_id', 'start', 'end'])
        .where('host_id', 'in', this.sql.dialect.idList(hostIds))
        .where((eb) => eb.or([eb('end', 'is', null), eb('end', '>', since)]))
    )
  }

  countServices(selection: ServiceSelection): number {
    return this.sql.first(this.services(selection).select((eb) => eb.fn.countAll<number>().as('n')))!.n
  }

  /** One page of services, each with until when it is muted at `now` (Unix seconds). */
  servicePage(
    selection: ServiceSelection,
    sort: ServiceListSortKey,
    dir: SortDir,
    offset: number,
    limit: number,
    now: number
  ): ServiceOverviewRow[] {
    let query = this.services(selection)
      .leftJoin(this.activeSince(), (join) =>
        join.onRef('active_since.host_id', '=', 'service.host_id').onRef('active_since.service_name_id', '=', 'service.name_id')
      )
      .select([
        'host.id as hostid',
        'host.hostname',
        'host.heartbeat',
        'service.id',
        'service.name',
        'service.type',
        'service.led',
        'service.status_text as status',
        'active_since.since',
        'host.last_modified as lastreport',
        serviceMutedUntil(now).as('muted')
      ])
    query =
      sort === 'attention'
        ? query.orderBy(serviceSeverity, dir).orderBy(sql.ref('since'), (ob) => ob.asc().nullsLast())
        : query.orderBy(serviceSort[sort], dir)
    return this.sql.all(query.orderBy('host.hostname').orderBy('service.name').orderBy('service.id').limit(limit).offset(offset))
  }

  /**
   * Since when each service's open failure lasts (its oldest active event), to join as `active_since`:
   * one grouped read of the active events (event_active index). As a subquery per service, SQLite took
   * the (service_name_id, date) index for min(date) and walked every host's events of that name: 5 s for
   * the services list at 10,000 hosts.
   */
  private activeSince(hostIds?: readonly number[]) {
    let active = this.db
      .selectFrom('event')
      .select(['event.host_id', 'event.service_name_id', (eb) => eb.fn.min<number>('event.date').as('since')])
      .where('event.active', '=', 1)
    if (hostIds) active = active.where('event.host_id', 'in', this.sql.dialect.idList(hostIds))
    return active.groupBy(['event.host_id', 'event.service_name_id']).as('active_since')
  }

  private services(s: ServiceSelection) {
    const hosts = selected(this.sql.dialect, this.db.selectFrom('host'), s.hosts).select('host.id')
    let query = this.db.selectFrom('service').innerJoin('host', 'host.id', 'service.host_id').where('service.host_id', 'in', hosts)
    if (s.pattern) query = query.where(this.sql.dialect.contains('service.name', s.pattern))
    if (s.leds?.length) query = query.where('service.led', 'in', this.sql.dialect.idList(s.leds))
    return query
  }
}
