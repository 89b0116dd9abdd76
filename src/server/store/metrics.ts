// The reads behind /metrics: one query for the hosts, one for their services, whatever their number.
import type { QueryBuilder, SqlRunner } from './sql'

export interface HostMetricRow {
  id: number
  hostname: string
  led: number
  status: number
  heartbeat: number
  events_count: number
  cpu: number | null
  mem: number | null
  last_modified: number
}

export interface ServiceMetricRow {
  host_id: number
  name: string
  type: number
  led: number
  status: number
  monitor: number
  /** Encoded latest statistics (store/latest-statistics.ts) */
  statistics: string
}

export class MetricsRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /** The hosts in `visible` (undefined: every host), by name. */
  hosts(visible: readonly number[] | undefined): HostMetricRow[] {
    let query = this.db
      .selectFrom('host')
      .select(['id', 'hostname', 'led', 'status', 'heartbeat', 'events_count', 'cpu', 'mem', 'last_modified'])
    if (visible) query = query.where('id', 'in', this.sql.dialect.idList(visible))
    return this.sql.all(query.orderBy('hostname').orderBy('id'))
  }

  /** The services of the hosts in `visible` (undefined: every host), in the agents' order. */
  services(visible: readonly number[] | undefined): ServiceMetricRow[] {
    let query = this.db.selectFrom('service').select(['host_id', 'name', 'type', 'led', 'status', 'monitor', 'statistics'])
    if (visible) query = query.where('host_id', 'in', this.sql.dialect.idList(visible))
    return this.sql.all(query.orderBy('host_id').orderBy('position'))
  }
}

// One JSON parameter however many ids: the statement text stays the same, so it stays cached.
