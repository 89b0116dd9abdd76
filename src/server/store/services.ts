// Services of a host with their latest statistics and service groups: the latest-value tables that
// status reads use, so they never scan history. Writes touch only what changed: most of a heartbeat
// repeats the previous one, and this is the collector's hot path.
import type { Selectable } from 'kysely'
import type { ServiceTable } from './schema'
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
  /** Encoded latest statistics (latest-statistics.ts) */
  statistics: string
}

export type StoredService = Omit<Selectable<ServiceTable>, 'host_id' | 'events_count'>

export class ServiceRepository {
  private readonly nameIds = new Map<string, number>()
  private readonly findNameId
  private readonly insertName
  private readonly listOfHost
  private readonly insertService
  private readonly updateService
  private readonly updateServiceState
  private readonly deleteService
  private readonly bumpEvents

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    // A rolled-back transaction may have inserted names whose remembered ids are then wrong.
    sql.onRollback(() => this.nameIds.clear())
    this.findNameId = sql.prepare((p: { name: string }) => db.selectFrom('service_name').select('id').where('name', '=', p.name))
    this.insertName = sql.prepare((p: { name: string }) => db.insertInto('service_name').values({ name: p.name }).returning('id'))
    this.listOfHost = sql.prepare((p: { hostId: number }) =>
      db
        .selectFrom('service')
        .select([
          'id',
          'name_id',
          'name',
          'type',
          'position',
          'collected_usec',
          'status',
          'status_hint',
          'monitor',
          'monitor_mode',
          'on_reboot',
          'pending_action',
          'every',
          'led',
          'status_text',
          'statistics'
        ])
        .where('host_id', '=', p.hostId)
    )
    const columns = (p: ServiceState) => ({
      name_id: p.nameId,
      name: p.name,
      type: p.type,
      position: p.position,
      collected_usec: p.collectedUsec,
      status: p.status,
      status_hint: p.statusHint,
      monitor: p.monitor,
      monitor_mode: p.monitorMode,
      on_reboot: p.onReboot,
      pending_action: p.pendingAction,
      every: p.every,
      led: p.led,
      status_text: p.statusText,
      statistics: p.statistics
    })
    this.insertService = sql.prepare((p: ServiceState & { hostId: number }) =>
      db
        .insertInto('service')
        .values({ host_id: p.hostId, ...columns(p) })
        .returning('id')
    )
    this.updateService = sql.prepare((p: ServiceState & { id: number }) => db.updateTable('service').set(columns(p)).where('id', '=', p.id))
    this.updateServiceState = sql.prepare((p: ServiceState & { id: number }) =>
      db
        .updateTable('service')
        .set({
          collected_usec: p.collectedUsec,
          status: p.status,
          status_hint: p.statusHint,
          monitor: p.monitor,
          monitor_mode: p.monitorMode,
          on_reboot: p.onReboot,
          pending_action: p.pendingAction,
          every: p.every,
          led: p.led,
          status_text: p.statusText,
          statistics: p.statistics
        })
        .where('id', '=', p.id)
    )
    this.deleteService = sql.prepare((p: { id: number }) => db.deleteFrom('service').where('id', '=', p.id))
    this.bumpEvents = sql.prepare((p: { hostId: number; name: string; count: number }) =>
      db
        .updateTable('service')
        .set((eb) => ({ events_count: eb('events_count', '+', p.count) }))
        .where('host_id', '=', p.hostId)
        .where('name', '=', p.name)
    )
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

  ofHost(hostId: number): StoredService[] {
    return this.listOfHost.all({ hostId })
  }

  insert(hostId: number, s: ServiceState): number {
    return this.insertService.get({ hostId, ...s })!.id
  }

  update(s: ServiceState & { id: number }): void {
    this.updateService.runLater(s)
  }

  /** Like update, for a service that keeps its name, type and place: an indexed column costs to rewrite. */
  updateState(s: ServiceState & { id: number }): void {
    this.updateServiceState.runLater(s)
  }

  delete(id: number): void {
    this.deleteService.run({ id })
  }

  addEvents(hostId: number, name: string, count: number): void {
    this.bumpEvents.runLater({ hostId, name, count })
  }

  /** Rewrites the host's service groups (membership by service name id). */
  replaceGroups(hostId: number, groups: readonly { name: string; services: readonly string[] }[]): void {
    this.sql.run(this.db.deleteFrom('service_group').where('host_id', '=', hostId))
    for (const g of groups) {
      const row = this.sql.first(this.db.insertInto('service_group').values({ host_id: hostId, name: g.name }).returning('id'))!
      const members = [...new Set(g.services.map((n) => this.nameId(n)))]
      if (members.length === 0) continue
      this.sql.run(
        this.db.insertInto('service_group_member').values(members.map((service_name_id) => ({ group_id: row.id, service_name_id })))
      )
    }
  }
}
