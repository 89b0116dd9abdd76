// The statistic registry seen as history series: a stable id per (service, type, descriptor), created
// by the collector on first sight and looked up by the analytics report.
import type { QueryBuilder, SqlRunner } from './sql'

export interface StatisticIdRow {
  id: number
  service_id: number
  type: number
  descriptor: string
}

export interface SeriesRow extends StatisticIdRow {
  service: string
}

export interface SeriesFilter {
  serviceId?: number
  service?: string
  type?: number
  descriptor?: string
}

export class SeriesRepository {
  private readonly insertStatistic
  /** Where the engine has it: several statistics of one service registered by one statement. */
  private readonly insertStatistics
  private readonly findStatistic
  private readonly listOfHost
  private readonly newestId

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.insertStatistic = sql.prepare((p: { serviceId: number; type: number; descriptor: string }) =>
      db
        .insertInto('statistic')
        .values({ service_id: p.serviceId, type: p.type, descriptor: p.descriptor })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
    )
    const arrayRows = sql.dialect.arrayRows
    this.insertStatistics =
      arrayRows &&
      sql.prepare((p: { serviceId: number[]; type: number[]; descriptor: string[] }) =>
        db
          .insertInto('statistic')
          .columns(['service_id', 'type', 'descriptor'])
          .expression(
            db
              .selectFrom(
                arrayRows<{ service_id: number; type: number; descriptor: string }, 'v'>('v', {
                  service_id: { type: 'bigint', values: p.serviceId },
                  type: { type: 'bigint', values: p.type },
                  descriptor: { type: 'text', values: p.descriptor }
                })
              )
              .select(['v.service_id', 'v.type', 'v.descriptor'])
          )
          .onConflict((oc) => oc.doNothing())
          .returning(['id', 'type', 'descriptor'])
      )
    this.findStatistic = sql.prepare((p: { serviceId: number; type: number; descriptor: string }) =>
      db
        .selectFrom('statistic')
        .select('id')
        .where('service_id', '=', p.serviceId)
        .where('type', '=', p.type)
        .where('descriptor', '=', p.descriptor)
    )
    this.listOfHost = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('statistic')
        .innerJoin('service', 'service.id', 'statistic.service_id')
        .select(['statistic.id', 'statistic.service_id', 'statistic.type', 'statistic.descriptor'])
        .where('service.host_id', '=', p.hostId)
    )
    this.newestId = sql.prepare((_: Record<string, never>) => db.selectFrom('statistic').select((eb) => eb.fn.max('id').as('id')))
  }

  /** The highest statistic id given so far (0 before the first). */
  maxId(): number {
    return this.newestId.get({})?.id ?? 0
  }

  /** The statistic's stable id, registering it on first sight. */
  register(serviceId: number, type: number, descriptor: string): number {
    const args = { serviceId, type, descriptor }
    return this.insertStatistic.get(args)?.id ?? this.findStatistic.get(args)!.id
  }

  /** register for each of `statistics` (distinct), in one statement where the engine can: their ids, in order. */
  registerAll(serviceId: number, statistics: readonly { type: number; descriptor: string }[]): number[] {
    if (statistics.length < 2 || !this.insertStatistics) return statistics.map((st) => this.register(serviceId, st.type, st.descriptor))
    const inserted = this.insertStatistics.all({
      serviceId: statistics.map(() => serviceId),
      type: statistics.map((st) => st.type),
      descriptor: statistics.map((st) => st.descriptor)
    })
    const ids = new Map(inserted.map((row) => [`${row.type}\u0000${row.descriptor}`, row.id]))
    // Those registered already (by another instance) are not returned: read one by one.
    return statistics.map((st) => ids.get(`${st.type}\u0000${st.descriptor}`) ?? this.register(serviceId, st.type, st.descriptor))
  }

  /** Every statistic id of the host's services. */
  idsOfHost(hostId: number): StatisticIdRow[] {
    return this.listOfHost.all({ hostId })
  }

  /** The host's series matching the filter, in service order then by type and descriptor. */
  seriesOfHost(hostId: number, f: SeriesFilter): SeriesRow[] {
    let q = this.db
      .selectFrom('statistic')
      .innerJoin('service', 'service.id', 'statistic.service_id')
      .select(['statistic.id', 'statistic.service_id', 'statistic.type', 'statistic.descriptor', 'service.name as service'])
      .where('service.host_id', '=', hostId)
    if (f.serviceId !== undefined) q = q.where('service.id', '=', f.serviceId)
    if (f.service !== undefined) q = q.where('service.name', '=', f.service)
    if (f.type !== undefined) q = q.where('statistic.type', '=', f.type)
    if (f.descriptor !== undefined) q = q.where('statistic.descriptor', '=', f.descriptor)
    return this.sql.all(q.orderBy('service.position').orderBy('statistic.type').orderBy('statistic.descriptor'))
  }
}
