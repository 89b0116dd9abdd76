// Rolled-up history: one row per (level, block start, statistic) holding that block's packed buckets.
import type { RolledLevel } from '../domain/history-levels'
import { blockTable, historyQueries } from './history-schema'
import type { QueryBuilder, SqlRunner } from './sql'

export interface BlockRow {
  statistic_id: number
  buckets: Uint8Array
}

export interface StartedBlockRow extends BlockRow {
  start: number
}

/** Block starts per query: one statement seeks them all (SQLite allows 32,766 parameters). */
const STARTS_PER_QUERY = 500
/** Statistic ids per query, likewise. */
const IDS_PER_QUERY = 500

type Prepared = ReturnType<typeof prepareLevel>

/** The rows `read` returns for each chunk of `values`, in order: one query per chunk, within the engines' parameter limits. */
function inChunks<R>(values: readonly number[], size: number, read: (chunk: number[]) => R[]): R[] {
  const rows: R[] = []
  for (let i = 0; i < values.length; i += size) rows.push(...read(values.slice(i, i + size)))
  return rows
}

function prepareLevel(db: QueryBuilder, sql: SqlRunner, level: RolledLevel) {
  const h = historyQueries(db)
  const table = blockTable[level]
  return {
    put: sql.prepare((p: { start: number; statisticId: number; buckets: Uint8Array }) =>
      h
        .insertInto(table)
        .values({ start: p.start, statistic_id: p.statisticId, buckets: p.buckets })
        .onConflict((oc) => oc.columns(['start', 'statistic_id']).doUpdateSet({ buckets: (eb) => eb.ref('excluded.buckets') }))
    ),
    get: sql.prepare((p: { start: number; statisticId: number }) =>
      h.selectFrom(table).select('buckets').where('start', '=', p.start).where('statistic_id', '=', p.statisticId)
    ),
    range: sql.prepare((p: { start: number; fromId: number; toId: number }) =>
      h
        .selectFrom(table)
        .select(['statistic_id', 'buckets'])
        .where('start', '=', p.start)
        .where('statistic_id', '>=', p.fromId)
        .where('statistic_id', '<=', p.toId)
        .orderBy('statistic_id')
    ),
    firstStart: sql.prepare((p: { from: number }) =>
      h
        .selectFrom(table)
        .select((eb) => eb.fn.min('start').as('start'))
        .where('start', '>=', p.from)
    ),
    prune: sql.prepare((p: { before: number; limit: number }) =>
      h
        .deleteFrom(table)
        .where((eb) =>
          eb(
            eb.refTuple('start', 'statistic_id'),
            'in',
            eb
              .selectFrom(table)
              .select(['start', 'statistic_id'])
              .where('start', '<', p.before)
              .orderBy('start')
              .orderBy('statistic_id')
              .limit(p.limit)
              .$asTuple('start', 'statistic_id')
          )
        )
    )
  }
}

export class BlockRepository {
  private readonly levels: Record<RolledLevel, Prepared>

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.levels = {
      minute: prepareLevel(db, sql, 'minute'),
      hour: prepareLevel(db, sql, 'hour'),
      day: prepareLevel(db, sql, 'day')
    }
  }

  put(level: RolledLevel, start: number, statisticId: number, buckets: Uint8Array): void {
    this.levels[level].put.runLater({ start, statisticId, buckets })
  }

  get(level: RolledLevel, start: number, statisticId: number): Uint8Array | undefined {
    return this.levels[level].get.get({ start, statisticId })?.buckets
  }

  /** The blocks starting at `start` of statistics fromId..toId, by statistic id. */
  range(level: RolledLevel, start: number, fromId: number, toId: number): BlockRow[] {
    return this.levels[level].range.all({ start, fromId, toId })
  }

  /** The blocks at any of `starts` of statistics fromId..toId: one query seeks every start (a year is 365). */
  rangeAt(level: RolledLevel, starts: readonly number[], fromId: number, toId: number): StartedBlockRow[] {
    const h = historyQueries(this.db)
    return inChunks(starts, STARTS_PER_QUERY, (chunk) =>
      this.sql.all(
        h
          .selectFrom(blockTable[level])
          .select(['start', 'statistic_id', 'buckets'])
          .where('start', 'in', chunk)
          .where('statistic_id', '>=', fromId)
          .where('statistic_id', '<=', toId)
      )
    )
  }

  /** The blocks starting at `start` of the given statistics: one query per 500 ids, not one per block. */
  atStart(level: RolledLevel, start: number, statisticIds: readonly number[]): BlockRow[] {
    const h = historyQueries(this.db)
    return inChunks(statisticIds, IDS_PER_QUERY, (chunk) =>
      this.sql.all(
        h.selectFrom(blockTable[level]).select(['statistic_id', 'buckets']).where('start', '=', start).where('statistic_id', 'in', chunk)
      )
    )
  }

  /** The earliest start of a block at or after `from`, of any statistic (a seek on the primary key). */
  firstStartFrom(level: RolledLevel, from: number): number | undefined {
    return this.levels[level].firstStart.get({ from })?.start ?? undefined
  }

  /** Deletes up to `limit` of the oldest blocks that start before `before`; returns how many. */
  prune(level: RolledLevel, before: number, limit: number): number {
    return this.levels[level].prune.run({ before, limit }).changes
  }
}
