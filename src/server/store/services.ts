// Services of a host with their latest statistics and service groups: the latest-value tables that
// status reads use, so they never scan history.
import type { Statistic } from '../collector/message'
import type { QueryBuilder, SqlRunner } from './sql'

export interface ServiceState {
  nameId: number
  name: string
  type: number
  position: number
  collectedUsec: number
  status: number
  statusHint: number
  monitor: number
  monitorMode: number
  onReboot: number
  pendingAction: number
  every: string | null
  led: number
  statusText: string
}

export class ServiceRepository {
  private readonly nameIds = new Map<string, number>()
  private readonly findNameId
  private readonly insertName
  private readonly listOfHost
  private readonly insertService
  private readonly updateService
  private readonly deleteService
  private readonly deleteStaleStatistics
  private readonly upsertStatistic
  private readonly bumpEvents

  constructor(private readonly db: QueryBuilder, private readonly sql: SqlRunner) {
    this.findNameId = sql.prepare((p: { name: string }) => db.selectFrom('service_name').select('id').where('name', '=', p.name))
    this.insertName = sql.prepare((p: { name: string }) => db.insertInto('service_name').values({ name: p.name }).returning('id'))
    this.listOfHost = sql.prepare((p: { hostId: number }) =>
      db.selectFrom('service').select(['id', 'name', 'collected_usec', 'led']).where('host_id', '=', p.hostId))
    const columns = (p: ServiceState) => ({
      name_id: p.nameId, name: p.name, type: p.type, position: p.position, collected_usec: p.collectedUsec,
      status: p.status, status_hint: p.statusHint, monitor: p.monitor, monitor_mode: p.monitorMode,
      on_reboot: p.onReboot, pending_action: p.pendingAction, every: p.every, led: p.led, status_text: p.statusText
    })
    this.insertService = sql.prepare((p: ServiceState & { hostId: number }) =>
      db.insertInto('service').values({ host_id: p.hostId, ...columns(p) }).returning('id'))
    this.updateService = sql.prepare((p: ServiceState & { id: number }) =>
      db.updateTable('service').set(columns(p)).where('id', '=', p.id))
    this.deleteService = sql.prepare((p: { id: number }) => db.deleteFrom('service').where('id', '=', p.id))
    this.deleteStaleStatistics = sql.prepare((p: { id: number; usec: number }) =>
      db.deleteFrom('statistic').where('service_id', '=', p.id).where('collected_usec', '<', p.usec))
    this.upsertStatistic = sql.prepare((p: { id: number; type: number; descriptor: string; value: number; text: string | null; usec: number }) =>
      db.insertInto('statistic')
        .values({ service_id: p.id, type: p.type, descriptor: p.descriptor, value: p.value, text: p.text, collected_usec: p.usec })
        .onConflict((oc) => oc.columns(['service_id', 'type', 'descriptor']).doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'), text: eb.ref('excluded.text'), collected_usec: eb.ref('excluded.collected_usec')
        }))))
    this.bumpEvents = sql.prepare((p: { hostId: number; name: string; count: number }) =>
      db.updateTable('service').set((eb) => ({ events_count: eb('events_count', '+', p.count) }))
        .where('host_id', '=', p.hostId).where('name', '=', p.name))
  }

  /** The shared id of a service name (the spec's `nameid`), created on first use. */
  nameId(name: string): number {
    let id = this.nameIds.get(name)
    if (id === undefined) {
      id = this.findNameId.get({ name })?.id ?? this.insertName.get({ name })!.id
      this.nameIds.set(name, id)
    }
    return id
  }

  ofHost(hostId: number): { id: number; name: string; collected_usec: number; led: number }[] {
    return this.listOfHost.all({ hostId })
  }

  insert(hostId: number, s: ServiceState): number {
    return this.insertService.get({ hostId, ...s })!.id
  }

  update(id: number, s: ServiceState): void {
    this.updateService.run({ id, ...s })
  }

  delete(id: number): void {
    this.deleteService.run({ id })
  }

  /** Sets the service's statistics to those of a snapshot taken at `usec`; the others are dropped. */
  replaceStatistics(id: number, statistics: readonly Statistic[], usec: number): void {
    for (const st of statistics) {
      this.upsertStatistic.run({ id, type: st.type, descriptor: st.descriptor, value: st.value, text: st.text ?? null, usec })
    }
    this.deleteStaleStatistics.run({ id, usec })
  }

  addEvents(hostId: number, name: string, count: number): void {
    this.bumpEvents.run({ hostId, name, count })
  }

  /** Rewrites the host's service groups (membership by service name id). */
  replaceGroups(hostId: number, groups: readonly { name: string; services: readonly string[] }[]): void {
    this.sql.run(this.db.deleteFrom('service_group').where('host_id', '=', hostId))
    for (const g of groups) {
      const row = this.sql.first(this.db.insertInto('service_group').values({ host_id: hostId, name: g.name }).returning('id'))!
      const members = [...new Set(g.services.map((n) => this.nameId(n)))]
      if (members.length === 0) continue
      this.sql.run(this.db.insertInto('service_group_member')
        .values(members.map((service_name_id) => ({ group_id: row.id, service_name_id }))))
    }
  }
}
