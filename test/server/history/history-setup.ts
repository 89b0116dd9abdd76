// A real store with one host and a few registered statistics, and raw history rows written as the
// collector writes them, at chosen times: what the rollup tests start from.
import { decodeBlock } from '../../../src/server/history/block-codec'
import type { Bucket } from '../../../src/server/history/buckets'
import { timeOfSlot, type RolledLevel } from '../../../src/server/domain/history-levels'
import { RawSampleWriter } from '../../../src/server/history/raw-samples'
import type { Store } from '../../../src/server/store/store'
import { fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'

/** 2027-01-01T00:00:00Z: a month, day and hour boundary. */
export const T0 = Date.UTC(2027, 0, 1) / 1000
export const HOUR = 3600
export const DAY = 86400

export interface HistorySetup {
  temp: TempStore
  store: Store
  hostId: number
  /** Statistic ids registered on the host's first service */
  ids: number[]
  /** Writes one raw row (one poll) of the host. */
  raw(time: number, samples: readonly (readonly [number, number])[]): void
  /** The decoded buckets of a stored block, [] when there is none. */
  stored(level: RolledLevel, start: number, id: number): Bucket[]
}

export function historySetup(statistics = 3): HistorySetup {
  const temp = tempStore()
  const { hostId } = temp.post(fixture('02-status-heartbeat'))
  const store = temp.store
  // Start from an empty history: only the rows the test writes.
  store.sql.plain.exec('DELETE FROM history_raw')
  const serviceId = store.services.ofHost(hostId)[0].id
  const ids = Array.from({ length: statistics }, (_, i) => store.history.series.register(serviceId, 5000 + i, 'test'))
  const setup: HistorySetup = {
    temp,
    store: temp.store,
    hostId,
    ids,
    raw(time, samples) {
      const w = new RawSampleWriter()
      for (const [id, value] of samples) w.add(id, value)
      setup.store.history.raw.append(hostId, time, w.finish()!)
    },
    stored(level, start, id) {
      const blob = setup.store.history.blocks.get(level, start, id)
      return blob ? decodeBlock(blob, (slot) => timeOfSlot(level, start, slot)) : []
    }
  }
  return setup
}

/** The bucket of `samples` (time, value) as the rollup must compute it. */
export function expectedBucket(time: number, values: readonly number[]): Bucket {
  return {
    time,
    count: values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    sum: Math.round(values.reduce((a, b) => a + b, 0) * 1e6) / 1e6
  }
}
