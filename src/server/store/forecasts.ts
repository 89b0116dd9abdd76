// Forecasts (issue 30 §3): the resource series to forecast, read in statistic id order so that the job
// can go through a fleet in slices, and the forecasts it stores, read back as the "running out" list.
import type { Selectable } from 'kysely'
import { Stat } from '../../shared/codes'
import type { ForecastResource } from '../../shared/api/forecasts'
import type { ForecastTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

/** The statistic types forecast, and the resource each measures. */
export const FORECAST_TYPES: ReadonlyMap<number, ForecastResource> = new Map([
  [Stat.SpacePercent, 'space'],
  [Stat.InodePercent, 'inodes'],
  [Stat.MemoryPercent, 'memory'],
  [Stat.SwapPercent, 'swap']
])

export interface ResourceSeries {
  /** The statistic's id. */
  id: number
  host_id: number
  hostname: string
  /** The host's status: an ignored host's forecasts raise no event. */
  host_status: number
  service_id: number
  service: string
  service_type: number
  type: number
}

export type ForecastRow = Selectable<ForecastTable>
export type NamedForecastRow = ForecastRow & { hostname: string; service: string }

export class ForecastRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /** Up to `limit` resource series with ids above `afterId`, in id order (the job's next slice). */
  seriesAfter(afterId: number, limit: number): ResourceSeries[] {
    return this.sql.all(this.seriesQuery().where('statistic.id', '>', afterId).orderBy('statistic.id').limit(limit))
  }

  /** One host's resource series. */
  seriesOfHost(hostId: number): ResourceSeries[] {
    return this.sql.all(this.seriesQuery().where('service.host_id', '=', hostId).orderBy('statistic.id'))
  }

  /** Stores the forecasts, each replacing its statistic's last. */
  save(rows: readonly ForecastRow[]): void {
    if (rows.length === 0) return
    this.sql.transaction(() => {
      for (const row of rows) {
        const { statistic_id: _, ...values } = row
        this.sql.run(
          this.db
            .insertInto('forecast')
            .values(row)
            .onConflict((oc) => oc.column('statistic_id').doUpdateSet(values))
        )
      }
    })
  }

  /** The soonest stored forecast to reach 100 % of each of these services, if any. */
  soonestOf(serviceIds: readonly number[]): Map<number, ForecastRow & { full_at: number }> {
    const rows = this.sql.all(
      this.db
        .selectFrom('forecast')
        .selectAll()
        .where('service_id', 'in', this.sql.dialect.idList(serviceIds))
        .where('full_at', 'is not', null)
        .orderBy('full_at', 'desc')
    )
    // In descending order, each service's soonest is set last.
    return new Map(rows.map((r) => [r.service_id, r as ForecastRow & { full_at: number }]))
  }

  /** Forgets the forecasts of these statistics (their history no longer gives a trend). */
  remove(statisticIds: readonly number[]): void {
    if (statisticIds.length > 0)
      this.sql.run(this.db.deleteFrom('forecast').where('statistic_id', 'in', this.sql.dialect.idList(statisticIds)))
  }

  /**
   * The forecasts reaching 100 % by `untilSec`, soonest first, of the hosts `visible` (undefined: every
   * host), with their names; and how many there are in all.
   */
  runningOut(untilSec: number, visible: readonly number[] | undefined, limit: number): { rows: NamedForecastRow[]; total: number } {
    let q = this.db
      .selectFrom('forecast')
      .innerJoin('host', 'host.id', 'forecast.host_id')
      .innerJoin('service', 'service.id', 'forecast.service_id')
      .where('forecast.full_at', 'is not', null)
      .where('forecast.full_at', '<=', untilSec)
    if (visible) q = q.where('forecast.host_id', 'in', this.sql.dialect.idList(visible))
    const rows = this.sql.all(
      q
        .selectAll('forecast')
        .select(['host.hostname', 'service.name as service'])
        .orderBy('forecast.full_at')
        .orderBy('forecast.statistic_id')
        .limit(limit)
    )
    const total = Number(this.sql.first(q.select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0)
    return { rows, total }
  }

  private seriesQuery() {
    return this.db
      .selectFrom('statistic')
      .innerJoin('service', 'service.id', 'statistic.service_id')
      .innerJoin('host', 'host.id', 'service.host_id')
      .select([
        'statistic.id',
        'service.host_id',
        'host.hostname',
        'host.status as host_status',
        'statistic.service_id',
        'service.name as service',
        'service.type as service_type',
        'statistic.type'
      ])
      .where('statistic.type', 'in', [...FORECAST_TYPES.keys()])
  }
}
