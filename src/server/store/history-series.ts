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
