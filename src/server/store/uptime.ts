// The reads behind reports/uptime/{list,get}: down intervals and event counts over a span, as index
// scans (state_interval_host and _end; event_date and event_dedup as covering indexes) — never per-minute rows.
// The list reads every host's at once, in a few set-based queries whatever the number of hosts (issue 28:
// one query per host took 0.5–1.4 s at 10,000 hosts).
import type { DownInterval, Span } from '../domain/uptime'
import { sql as rawSql, type SqlBool } from 'kysely'
import { MonitorState } from '../../shared/codes'
import { preparedForNullable, type QueryBuilder, type SqlRunner } from './sql'

export interface UptimeHostRow {
  id: number
  hostname: string
  status: number
  /** Unix seconds of the host's first report: before it, its state is unknown. */
  created_at: number
  /** Moves with every change to the host's intervals, to which of its services exist or are monitored, and to its name, status and first report (migration 023). */
  uptime_generation: number
}

export interface UptimeServiceRow {
  id: number
  name: string
  name_id: number
  monitor: number
}

/** A down interval of some host: its silence (`service_name_id` null) or a monitored service's failure. */
export interface HostDownRow extends DownInterval {
  host_id: number
  service_name_id: number | null
}

/** What the list needs of a host to measure it. */
export interface HostDowns {
  /** The host's silences and its monitored services' failures overlapping the span. */
  downs: HostDownRow[]
  /** How many services the host monitors (monitor not off). */
  monitored: number
}

const hostColumns = ['host.id', 'host.hostname', 'host.status', 'host.created_at', 'host_uptime.generation as uptime_generation'] as const

/** A host's entry of `hosts`, added empty when absent. */
function of(hosts: Map<number, HostDowns>, hostId: number): HostDowns {
  let host = hosts.get(hostId)
  if (!host) hosts.set(hostId, (host = { downs: [], monitored: 0 }))
  return host
}

export class UptimeRepository {
  private readonly hostById
  private readonly allHosts
  private readonly servicesOfHost
  private readonly startingIn
  private readonly lastBefore
  private readonly eventsByName
  private readonly nameIdByName
  private readonly silencesOverlapping
  private readonly failuresOverlapping
  private readonly serviceCounts
  private readonly unmonitored
  private readonly eventCounts
  private readonly generations
  private readonly hostsMeasured

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    const hostsMeasured = () => db.selectFrom('host').innerJoin('host_uptime', 'host_uptime.host_id', 'host.id').select(hostColumns)
    this.hostsMeasured = hostsMeasured
    this.hostById = sql.prepare((p: { id: number }) => hostsMeasured().where('host.id', '=', p.id))
    this.generations = sql.prepare((_: Record<string, never>) =>
      db.selectFrom('host_uptime').select(['host_id as id', 'generation as uptime_generation'])
    )
    this.allHosts = sql.prepare((_: Record<string, never>) => hostsMeasured().orderBy('host.hostname').orderBy('host.id'))
    this.servicesOfHost = sql.prepare((p: { hostId: number }) =>
      db.selectFrom('service').select(['id', 'name', 'name_id', 'monitor']).where('host_id', '=', p.hostId).orderBy('position')
    )
    // Intervals of one (host, name) never overlap (one opens only when none is open), so those
    // overlapping [from, to) are the ones starting inside it plus at most the last one starting before.
    // Both are range scans of state_interval_host bounded by the span, whatever the history holds.
    const silence = (p: { nameId: number | null }) => p.nameId === null
    this.startingIn = preparedForNullable(silence, (forNull) =>
      sql.prepare((p: { hostId: number; nameId: number | null; from: number; to: number }) =>
        db
          .selectFrom('state_interval')
          .select(['start', 'end'])
          .where('host_id', '=', p.hostId)
          .where('service_name_id', forNull ? 'is' : '=', forNull ? null : p.nameId)
          .where('start', '>=', p.from)
          .where('start', '<', p.to)
      )
    )
    this.lastBefore = preparedForNullable(silence, (forNull) =>
      sql.prepare((p: { hostId: number; nameId: number | null; from: number }) =>
        db
          .selectFrom('state_interval')
          .select(['start', 'end'])
          .where('host_id', '=', p.hostId)
          .where('service_name_id', forNull ? 'is' : '=', forNull ? null : p.nameId)
          .where('start', '<', p.from)
          .orderBy('start', 'desc')
          .limit(1)
      )
    )
    // collected_usec carries date (its whole seconds), and event_dedup (host_id, service_name_id, class,
    // state, collected_usec) covers this query: no table row is read, and groups come in index order.
    this.eventsByName = sql.prepare((p: { hostId: number; fromUsec: number; toUsec: number }) =>
      db
        .selectFrom('event')
        .select((eb) => ['service_name_id', eb.fn.countAll<number>().as('n')])
        .where('host_id', '=', p.hostId)
        .where('collected_usec', '>=', p.fromUsec)
        .where('collected_usec', '<', p.toUsec)
        .groupBy('service_name_id')
    )
    this.nameIdByName = sql.prepare((p: { name: string }) => db.selectFrom('service_name').select('id').where('name', '=', p.name))
    // Every host's intervals overlapping [from, to): the open ones and those ending after `from`, each a
    // range scan of the covering index state_interval_end (an OR of the two made SQLite build a row set
    // first: half again as long at 80,000 intervals), starting before `to`. Services' only while
    // monitored, as reports/uptime/get counts them, and only of services that still exist
    // (service_host_name_id answers that without the service rows).
    const overlapping = (p: { from: number; to: number }, silences: boolean) => {
      const endingIn = (open: boolean) =>
        db
          .selectFrom('state_interval as si')
          .select(['si.host_id', 'si.service_name_id', 'si.start', 'si.end'])
          .where('si.end', open ? 'is' : '>', open ? null : p.from)
          .where('si.start', '<', p.to)
          .where('si.service_name_id', silences ? 'is' : 'is not', null)
          .$if(!silences, (q) =>
            q.where(({ exists, selectFrom }) =>
              exists(
                selectFrom('service')
                  .select('service.id')
                  .whereRef('service.host_id', '=', 'si.host_id')
                  .whereRef('service.name_id', '=', 'si.service_name_id')
              )
            )
          )
      return endingIn(true).unionAll(endingIn(false))
    }
    this.silencesOverlapping = sql.prepare((p: { from: number; to: number }) => overlapping(p, true))
    this.failuresOverlapping = sql.prepare((p: { from: number; to: number }) => overlapping(p, false))
    this.serviceCounts = sql.prepare((_: Record<string, never>) =>
      db
        .selectFrom('service')
        .select((eb) => ['host_id', eb.fn.countAll<number>().as('n')])
        .groupBy('host_id')
    )
    // A literal, not a bound value: only then does SQLite use the partial index service_unmonitored.
    this.unmonitored = sql.prepare((_: Record<string, never>) =>
      db
        .selectFrom('service')
        .select(['host_id', 'name_id'])
        .where(rawSql<SqlBool>`monitor = ${rawSql.lit(MonitorState.Off)}`)
    )
    this.eventCounts = sql.prepare((p: { from: number; to: number }) =>
      db
        .selectFrom('event')
        .select((eb) => ['host_id', eb.fn.countAll<number>().as('n')])
        .where('date', '>=', p.from)
        .where('date', '<', p.to)
        .groupBy('host_id')
    )
  }

  host(id: number): UptimeHostRow | undefined {
    return this.hostById.get({ id })
  }

  /** Every host's count of changes, by id, from their narrow table (the host table, rewritten with every message, took 30–60 ms to scan on PostgreSQL at 10,000 hosts). */
  hostGenerations(): Map<number, number> {
    return new Map(this.generations.all({}).map((h) => [h.id, h.uptime_generation]))
  }

  /** Every host by name. */
  hosts(): UptimeHostRow[] {
    return this.allHosts.all({})
  }

  /** Some hosts, in no order. */
  hostsWithIds(ids: readonly number[]): UptimeHostRow[] {
    return ids.length === 0 ? [] : this.sql.all(this.hostsMeasured().where('host.id', 'in', ids))
  }

  services(hostId: number): UptimeServiceRow[] {
    return this.servicesOfHost.all({ hostId })
  }

  /** The down intervals of one host and service name (null: host silence) overlapping the span. */
  downIntervals(hostId: number, nameId: number | null, span: Span): DownInterval[] {
    const inside = this.startingIn.all({ hostId, nameId, ...span })
    const before = this.lastBefore.get({ hostId, nameId, from: span.from })
    return before && (before.end === null || before.end > span.from) ? [before, ...inside] : inside
  }

  /** Every host's silences and monitored services' failures over the span, in four queries; a host without either is absent. */
  fleetDowns(span: Span): Map<number, HostDowns> {
    const fleet = new Map<number, HostDowns>()
    for (const r of this.serviceCounts.all({})) of(fleet, r.host_id).monitored = Number(r.n)
    const unmonitored = new Set<string>()
    for (const s of this.unmonitored.all({})) {
      unmonitored.add(`${s.host_id} ${s.name_id}`)
      of(fleet, s.host_id).monitored--
    }
    for (const row of this.silencesOverlapping.all(span)) of(fleet, row.host_id).downs.push(row)
    for (const row of this.failuresOverlapping.all(span))
      if (!unmonitored.has(`${row.host_id} ${row.service_name_id}`)) of(fleet, row.host_id).downs.push(row)
    return fleet
  }

  /**
   * What fleetDowns reads, for some hosts only, in two queries: their services, and their intervals overlapping
   * the span through state_interval_host (each host's entries starting before the span's end: a few per host
   * and day of failures, where fleetDowns reads every host's overlapping ones). A host without either is absent.
   */
  hostsDowns(hostIds: readonly number[], span: Span): Map<number, HostDowns> {
    const hosts = new Map<number, HostDowns>()
    if (hostIds.length === 0) return hosts
    const monitored = new Set<string>()
    const services = this.db.selectFrom('service').select(['host_id', 'name_id', 'monitor']).where('host_id', 'in', hostIds)
    for (const s of this.sql.all(services)) {
      if (s.monitor === MonitorState.Off) continue
      monitored.add(`${s.host_id} ${s.name_id}`)
      of(hosts, s.host_id).monitored++
    }
    const intervals = this.db
      .selectFrom('state_interval')
      .select(['host_id', 'service_name_id', 'start', 'end'])
      .where('host_id', 'in', hostIds)
      .where('start', '<', span.to)
      .where((eb) => eb.or([eb('end', 'is', null), eb('end', '>', span.from)]))
    for (const row of this.sql.all(intervals)) {
      if (row.service_name_id === null || monitored.has(`${row.host_id} ${row.service_name_id}`)) of(hosts, row.host_id).downs.push(row)
    }
    return hosts
  }

  /** Every host's events dated within the span; a host without any is absent. */
  eventCountsByHost(span: Span): Map<number, number> {
    return new Map(this.eventCounts.all(span).map((r) => [r.host_id, Number(r.n)]))
  }

  /** Events of the host dated within the span, by service name id. */
  eventCountsByName(hostId: number, span: Span): Map<number, number> {
    const counts = this.eventsByName.all({ hostId, fromUsec: span.from * 1_000_000, toUsec: span.to * 1_000_000 })
    return new Map(counts.map((r) => [r.service_name_id, r.n]))
  }

  /** The id of a service name, without creating it. */
  nameId(name: string): number | undefined {
    return this.nameIdByName.get({ name })?.id
  }
}
