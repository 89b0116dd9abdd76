// Services of a host with their latest statistics and service groups: the latest-value tables that
// status reads use, so they never scan history. Writes touch only what changed: most of a heartbeat
// repeats the previous one, and this is the collector's hot path.
import type { Selectable } from 'kysely'
import type { ServiceTable } from './schema'
import type { Prepared, QueryBuilder, SqlRunner } from './sql'

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

/** A service's row but its host: what the collector writes, and the M/Monit import too. */
/** What each message changes in a service's row. */
const serviceStateColumns = (p: ServiceState) => ({
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

export const serviceColumns = (p: ServiceState) => ({
  name_id: p.nameId,
  name: p.name,
  type: p.type,
  position: p.position,
  ...serviceStateColumns(p)
})

export type StoredService = Omit<Selectable<ServiceTable>, 'host_id' | 'events_count'>

export class ServiceRepository {
  private readonly nameIds = new Map<string, number>()
  private readonly findNameId
  private readonly insertName
  private readonly listOfHost
  private readonly insertService
  private readonly updateService
  private readonly updateServiceState
  /** Where the engine has it: the states of several services in one statement. */
  private readonly updateServiceStates: Prepared<StateColumns, unknown> | undefined
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
    this.insertService = sql.prepare((p: ServiceState & { hostId: number }) =>
      db
        .insertInto('service')
        .values({ host_id: p.hostId, ...serviceColumns(p) })
        .returning('id')
    )
    this.updateService = sql.prepare((p: ServiceState & { id: number }) =>
      db.updateTable('service').set(serviceColumns(p)).where('id', '=', p.id)
    )
    this.updateServiceState = sql.prepare((p: ServiceState & { id: number }) =>
      db.updateTable('service').set(serviceStateColumns(p)).where('id', '=', p.id)
    )
    const arrayRows = sql.dialect.arrayRows
    this.updateServiceStates =
      arrayRows &&
      sql.prepare((p: StateColumns) =>
        db
          .updateTable('service')
          .from(
            arrayRows<StateRow, 'v'>('v', {
              id: { type: 'bigint', values: p.id },
              collected_usec: { type: 'bigint', values: p.collected_usec },
              status: { type: 'bigint', values: p.status },
              status_hint: { type: 'bigint', values: p.status_hint },
              monitor: { type: 'bigint', values: p.monitor },
              monitor_mode: { type: 'bigint', values: p.monitor_mode },
              on_reboot: { type: 'bigint', values: p.on_reboot },
              pending_action: { type: 'bigint', values: p.pending_action },
              every: { type: 'text', values: p.every },
              led: { type: 'bigint', values: p.led },
              status_text: { type: 'text', values: p.status_text },
              statistics: { type: 'text', values: p.statistics }
            })
          )
          .set((eb) => ({
            collected_usec: eb.ref('v.collected_usec'),
            status: eb.ref('v.status'),
            status_hint: eb.ref('v.status_hint'),
            monitor: eb.ref('v.monitor'),
            monitor_mode: eb.ref('v.monitor_mode'),
            on_reboot: eb.ref('v.on_reboot'),
            pending_action: eb.ref('v.pending_action'),
            every: eb.ref('v.every'),
            led: eb.ref('v.led'),
            status_text: eb.ref('v.status_text'),
            statistics: eb.ref('v.statistics')
          }))
          .whereRef('service.id', '=', 'v.id')
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

  /**
   * Like update, for services that keep their name, type and place (an indexed column costs to rewrite):
   * all of them in one statement where the engine can.
   */
  updateStates(states: readonly (ServiceState & { id: number })[]): void {
    if (states.length === 1 || !this.updateServiceStates) {
      for (const s of states) this.updateServiceState.runLater(s)
    } else if (states.length > 1) {
      this.updateServiceStates.runLater(stateColumns(states))
    }
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

/** The columns updateStates writes, and the row id. */
type StateRow = { id: number } & Pick<
  ServiceTable,
  | 'collected_usec'
  | 'status'
  | 'status_hint'
  | 'monitor'
  | 'monitor_mode'
  | 'on_reboot'
  | 'pending_action'
  | 'every'
  | 'led'
  | 'status_text'
  | 'statistics'
>

/** Several services' StateRows, column by column. */
type StateColumns = { [K in keyof StateRow]: StateRow[K][] }

function stateColumns(states: readonly (ServiceState & { id: number })[]): StateColumns {
  return {
    id: states.map((s) => s.id),
    collected_usec: states.map((s) => s.collectedUsec),
    status: states.map((s) => s.status),
    status_hint: states.map((s) => s.statusHint),
    monitor: states.map((s) => s.monitor),
    monitor_mode: states.map((s) => s.monitorMode),
    on_reboot: states.map((s) => s.onReboot),
    pending_action: states.map((s) => s.pendingAction),
    every: states.map((s) => s.every),
    led: states.map((s) => s.led),
    status_text: states.map((s) => s.statusText),
    statistics: states.map((s) => s.statistics)
  }
}
