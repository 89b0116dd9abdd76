// The history repositories, one object on the store (see src/server/domain/history-levels.ts for the design).
import { BlockRepository } from './history-blocks'
import { RawHistoryRepository } from './history-raw'
import { SeriesRepository } from './history-series'
import { HistorySettingsRepository } from './history-settings'
import type { QueryBuilder, SqlRunner } from './sql'

export class HistoryStore {
  readonly raw: RawHistoryRepository
  readonly blocks: BlockRepository
  readonly series: SeriesRepository
  readonly settings: HistorySettingsRepository

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.raw = new RawHistoryRepository(db, sql)
    this.blocks = new BlockRepository(db, sql)
    this.series = new SeriesRepository(db, sql)
    this.settings = new HistorySettingsRepository(db, sql)
  }
}
