// Table types of the history tables (migration 003), added to the query builder with `withTables`.
import type { Generated } from 'kysely'
import type { QueryBuilder } from './sql'

export type HistoryRawTable = {
  id: Generated<number>
  host_id: number
  /** Unix seconds: the agent's collection time, never later than the server's clock */
  time: number
  /** Packed samples (src/server/history/raw-samples.ts) */
  samples: Uint8Array
}

export type HistoryBlockTable = {
  /** Start of the block period, unix seconds */
  start: number
  statistic_id: number
  /** Packed buckets (src/server/history/block-codec.ts) */
  buckets: Uint8Array
}

export type HistoryTables = {
  history_raw: HistoryRawTable
  history_minute: HistoryBlockTable
  history_hour: HistoryBlockTable
  history_day: HistoryBlockTable
}

export function historyQueries(db: QueryBuilder) {
  return db.withTables<HistoryTables>()
}

export const blockTable = { minute: 'history_minute', hour: 'history_hour', day: 'history_day' } as const
