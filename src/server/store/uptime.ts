// The reads behind reports/uptime/{list,get}: down intervals and event counts over a span, as index
// scans (state_interval_host; event_host_date and event_dedup as covering indexes) — never per-minute rows.
import type { DownInterval, Span } from '../domain/uptime'
import type { QueryBuilder, SqlRunner } from './sql'

export interface UptimeHostRow {
  id: number
  hostname: string
  status: number
  /** Unix seconds of the host's first report: before it, its state is unknown. */
  created_at: number
}

export interface UptimeServiceRow {
  id: number
  name: string
  name_id: number
  monitor: number
}

export class UptimeRepository {
  private readonly hostById
  private readonly allHosts
  private readonly servicesOfHost
  private readonly startingIn
  private readonly lastBefore
  private readonly eventsOfHost
  private readonly eventsByName
  private readonly nameIdByName

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.hostById = sql.prepare((p: { id: number }) =>
      db.selectFrom('host').select(['id', 'hostname', 'status', 'created_at']).where('id', '=', p.id)
    )
    this.allHosts = sql.prepare((_: Record<string, never>) =>
      db.selectFrom('host').select(['id', 'hostname', 'status', 'created_at']).orderBy('hostname').orderBy('id')
    )
    this.servicesOfHost = sql.prepare((p: { hostId: number }) =>
      db.selectFrom('service').select(['id', 'name', 'name_id', 'monitor']).where('host_id', '=', p.hostId).orderBy('position')
    )
    // Intervals of one (host, name) never overlap (one opens only when none is open), so those
    // overlapping [from, to) are the ones starting inside it plus at most the last one starting before.
    // Both are range scans of state_interval_host bounded by the span, whatever the history holds.
    this.startingIn = sql.prepare((p: { hostId: number; nameId: number | null; from: number; to: number }) =>
      db
        .selectFrom('state_interval')
        .select(['start', 'end'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', 'is not distinct from', p.nameId)
        .where('start', '>=', p.from)
        .where('start', '<', p.to)
    )
    this.lastBefore = sql.prepare((p: { hostId: number; nameId: number | null; from: number }) =>
      db
        .selectFrom('state_interval')
        .select(['start', 'end'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', 'is not distinct from', p.nameId)
        .where('start', '<', p.from)
        .orderBy('start', 'desc')
        .limit(1)
    )
    this.eventsOfHost = sql.prepare((p: { hostId: number; from: number; to: number }) =>
      db
        .selectFrom('event')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('host_id', '=', p.hostId)
        .where('date', '>=', p.from)
        .where('date', '<', p.to)
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
  }

  host(id: number): UptimeHostRow | undefined {
    return this.hostById.get({ id })
  }

  /** Every host by name; `visible` (undefined: all) narrows them to the caller's. */
  hosts(visible: ReadonlySet<number> | undefined): UptimeHostRow[] {
    const rows = this.allHosts.all({})
    return visible ? rows.filter((h) => visible.has(h.id)) : rows
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

  /** Events of the host dated within the span. */
  hostEventCount(hostId: number, span: Span): number {
    return this.eventsOfHost.get({ hostId, ...span })!.n
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
