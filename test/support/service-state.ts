// A service's state as the collector stores it, for tests and benchmarks that insert services directly.
import type { ServiceState } from '../../src/server/store/services'
import type { Store } from '../../src/server/store/store'

/** A monitored, running process service named `name` at `position`, with no statistics. */
export function serviceState(store: Store, name: string, position: number): ServiceState {
  return {
    nameId: store.services.nameId(name),
    name,
    type: 3,
    position,
    collectedUsec: 0,
    status: 0,
    statusHint: 0,
    monitor: 1,
    monitorMode: 0,
    onReboot: 0,
    pendingAction: 0,
    every: null,
    led: 2,
    statusText: 'OK',
    statistics: '[]'
  }
}
