// What the collector last stored for each host's services, kept in memory so that a heartbeat that
// repeats the previous one costs no service reads and no service writes. Only the collector writes service state;
// a host's services go only with its host, whose id is never reused. About 1 KB per service.
import type { SeriesRepository, StatisticIdRow } from '../store/history-series'
import { statisticKey, type StatisticKey } from '../store/latest-statistics'
import type { ServiceRepository, ServiceState, StoredService } from '../store/services'
import { StatisticSlots } from './statistic-slots'

export interface KnownService extends ServiceState {
  id: number
  /**
   * The service's registered statistics. Changed in place as statistics appear: a rolled-back
   * transaction makes the ingest forget every known service, so nothing uncommitted outlives it.
   */
  statisticSlots: StatisticSlots
}

export class KnownServices {
  private readonly byHost = new Map<number, Map<string, KnownService>>()

  constructor(
    private readonly services: ServiceRepository,
    private readonly series: SeriesRepository
  ) {}

  /** The host's services by name, read from the store the first time. */
  of(hostId: number): Map<string, KnownService> {
    let known = this.byHost.get(hostId)
    if (!known) {
      const slots = slotsByService(this.series.idsOfHost(hostId))
      known = new Map(this.services.ofHost(hostId).map((row) => [row.name, fromRow(row, slots.get(row.id) ?? new StatisticSlots())]))
      this.byHost.set(hostId, known)
    }
    return known
  }

  set(hostId: number, services: Map<string, KnownService>): void {
    this.byHost.set(hostId, services)
  }

  forget(): void {
    this.byHost.clear()
  }

  forgetHost(hostId: number): void {
    this.byHost.delete(hostId)
  }
}

function slotsByService(rows: readonly StatisticIdRow[]): Map<number, StatisticSlots> {
  const byService = new Map<number, { keys: StatisticKey[]; ids: number[] }>()
  for (const r of rows) {
    let registered = byService.get(r.service_id)
    if (!registered) byService.set(r.service_id, (registered = { keys: [], ids: [] }))
    registered.keys.push(statisticKey(r.type, r.descriptor))
    registered.ids.push(r.id)
  }
  return new Map([...byService].map(([serviceId, { keys, ids }]) => [serviceId, new StatisticSlots(keys, ids)]))
}

function fromRow(row: StoredService, statisticSlots: StatisticSlots): KnownService {
  const state: ServiceState = {
    nameId: row.name_id,
    name: row.name,
    type: row.type,
    position: row.position,
    collectedUsec: row.collected_usec,
    status: row.status,
    statusHint: row.status_hint,
    monitor: row.monitor,
    monitorMode: row.monitor_mode,
    onReboot: row.on_reboot,
    pendingAction: row.pending_action,
    every: row.every,
    led: row.led,
    statusText: row.status_text,
    statistics: row.statistics
  }
  return knownService(row.id, state, statisticSlots)
}

/**
 * One object shape for every known service, fields always in this order: the collector reads them
 * for every service of every message, and mixed shapes would make each read slow (megamorphic).
 */
export function knownService(id: number, s: ServiceState, statisticSlots: StatisticSlots): KnownService {
  return {
    id,
    nameId: s.nameId,
    name: s.name,
    type: s.type,
    position: s.position,
    collectedUsec: s.collectedUsec,
    status: s.status,
    statusHint: s.statusHint,
    monitor: s.monitor,
    monitorMode: s.monitorMode,
    onReboot: s.onReboot,
    pendingAction: s.pendingAction,
    every: s.every,
    led: s.led,
    statusText: s.statusText,
    statistics: s.statistics,
    statisticSlots
  }
}
