// Alert mutes (migration 006): a host, or one of its services, silenced until a time (maintenance).
// A mute ends by itself at `until`; nothing deletes expired rows, so they stay listed as ended.

import type { QueryBuilder, SqlRunner } from './sql'

export interface AlertMute {
  id: number
  hostId: number
  hostname: string
  /** null: the whole host */
  serviceNameId: number | null
  service: string | null
  /** The service's id as status/hosts/get answers it; null for a whole host or a service no longer reported */
  serviceId: number | null
  /** Unix seconds */
  until: number
  reason: string
  createdBy: string
  createdAt: number
}

export interface AlertMuteValues {
  hostId: number
  serviceNameId: number | null
  until: number
  reason: string
  createdBy: string
}

export class AlertMuteRepository {
  constructor(
    private readonly q: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /** Mutes in force at `now` (until later than now), soonest ending first; with `ended`, the others too. */
  list(now: number, ended = false): AlertMute[] {
    let query = this.q
      .selectFrom('alert_mute as m')
      .innerJoin('host as h', 'h.id', 'm.host_id')
      .leftJoin('service_name as n', 'n.id', 'm.service_name_id')
      .leftJoin('service as s', (j) => j.onRef('s.host_id', '=', 'm.host_id').onRef('s.name_id', '=', 'm.service_name_id'))
      .select([
        'm.id',
        'm.host_id as hostId',
        'h.hostname',
        'm.service_name_id as serviceNameId',
        'n.name as service',
        's.id as serviceId',
        'm.until',
        'm.reason',
        'm.created_by as createdBy',
        'm.created_at as createdAt'
      ])
      .orderBy('m.until')
      .orderBy('m.id')
    if (!ended) query = query.where('m.until', '>', now)
    return this.sql.all(query)
  }

  create(mute: AlertMuteValues, now: number): number {
    return this.sql.first(
      this.q
        .insertInto('alert_mute')
        .values({
          host_id: mute.hostId,
          service_name_id: mute.serviceNameId,
          until: mute.until,
          reason: mute.reason,
          created_by: mute.createdBy,
          created_at: now
        })
        .returning('id')
    )!.id
  }

  /** Ends a mute early. False when there is no such mute. */
  /** Ends an active mute now (it stays listed as ended): false when there is no such mute or it had ended. */
  end(id: number, now: number): boolean {
    return this.sql.run(this.q.updateTable('alert_mute').set({ until: now }).where('id', '=', id).where('until', '>', now)).changes === 1
  }

  exists(id: number): boolean {
    return this.sql.first(this.q.selectFrom('alert_mute').select('id').where('id', '=', id)) !== undefined
  }

  delete(id: number): boolean {
    return this.sql.run(this.q.deleteFrom('alert_mute').where('id', '=', id)).changes === 1
  }

  /** The service name id of service `serviceId` (status/hosts/get's id) when it is one of the host's. */
  serviceNameOf(hostId: number, serviceId: number): number | undefined {
    return this.sql.first(this.q.selectFrom('service').select('name_id').where('id', '=', serviceId).where('host_id', '=', hostId))?.name_id
  }
}
