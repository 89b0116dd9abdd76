// Raw history: one row per host and poll, written by the collector inside its message transaction, read
// back by the rollup job (by host and hour, and past its late-sample watermark) and by chart queries.
import { historyQueries } from './history-schema'
import type { QueryBuilder, SqlRunner } from './sql'

export interface RawRow {
  id: number
  host_id: number
  time: number
  samples: Uint8Array
}

export class RawHistoryRepository {
  private readonly insertRow
  private readonly rowsOfHost
  private readonly rowsAfter
  private readonly newestId
  private readonly hostsAfter
  private readonly deleteOld
  private readonly oldest
  private readonly firstFrom

  constructor(db: QueryBuilder, sql: SqlRunner) {
    const h = historyQueries(db)
    // A retried post of the same poll adds nothing: (host, time) is unique.
    this.insertRow = sql.prepare((p: { hostId: number; time: number; samples: Uint8Array }) =>
      h
        .insertInto('history_raw')
        .values({ host_id: p.hostId, time: p.time, samples: p.samples })
        .onConflict((oc) => oc.doNothing())
    )
    this.rowsOfHost = sql.prepare((p: { hostId: number; from: number; to: number; maxId: number; limit: number }) =>
      h
        .selectFrom('history_raw')
        .select(['id', 'host_id', 'time', 'samples'])
        .where('host_id', '=', p.hostId)
        .where('time', '>=', p.from)
        .where('time', '<', p.to)
        .where('id', '<=', p.maxId)
        .orderBy('time')
        .limit(p.limit)
    )
    this.rowsAfter = sql.prepare((p: { afterId: number; limit: number }) =>
      h.selectFrom('history_raw').select(['id', 'host_id', 'time', 'samples']).where('id', '>', p.afterId).orderBy('id').limit(p.limit)
    )
    this.newestId = sql.prepare((_: Record<string, never>) => h.selectFrom('history_raw').select((eb) => eb.fn.max('id').as('id')))
    this.oldest = sql.prepare((_: Record<string, never>) => h.selectFrom('history_raw').select((eb) => eb.fn.min('time').as('time')))
    this.firstFrom = sql.prepare((p: { from: number; maxId: number }) =>
      h
        .selectFrom('history_raw')
        .select((eb) => eb.fn.min('time').as('time'))
        .where('time', '>=', p.from)
        .where('id', '<=', p.maxId)
    )
    this.hostsAfter = sql.prepare((p: { afterId: number; limit: number }) =>
      db.selectFrom('host').select('id').where('id', '>', p.afterId).orderBy('id').limit(p.limit)
    )
    // Rows leave in arrival order; a row's time is never after its arrival, so the oldest arrivals are
    // the first to pass the cut and only late rows (older still) can wait, at most one retention span.
    this.deleteOld = sql.prepare((p: { before: number; maxId: number; limit: number }) =>
      h
        .deleteFrom('history_raw')
        .where('id', 'in', (eb) => eb.selectFrom('history_raw').select('id').where('id', '<=', p.maxId).orderBy('id').limit(p.limit))
        .where('time', '<', p.before)
    )
  }

  append(hostId: number, time: number, samples: Uint8Array): void {
    this.insertRow.runLater({ hostId, time, samples })
  }

  /**
   * The host's rows with time in [from, to) and id ≤ maxId, oldest first, at most `limit` (unbounded: a
   * limit both engines accept, PostgreSQL refusing SQLite's -1).
   */
  ofHost(hostId: number, from: number, to: number, maxId = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER): RawRow[] {
    return this.rowsOfHost.all({ hostId, from, to, maxId, limit })
  }

  /** Rows inserted after the row `afterId`, in insertion order. */
  after(afterId: number, limit: number): RawRow[] {
    return this.rowsAfter.all({ afterId, limit })
  }

  newest(): number {
    return this.newestId.get({})?.id ?? 0
  }

  /** Time of the oldest row, if any: a full scan, for the rollup's first start only. */
  oldestTime(): number | undefined {
    return this.oldest.get({})?.time ?? undefined
  }

  /**
   * Time of the oldest row at or after `from` with id ≤ maxId, if any: a scan (no index leads with
   * time), which the rollup makes only after finding an hour empty, to jump over the gap at once.
   */
  firstTimeFrom(from: number, maxId: number): number | undefined {
    return this.firstFrom.get({ from, maxId })?.time ?? undefined
  }

  hostIdsAfter(afterId: number, limit: number): number[] {
    return this.hostsAfter.all({ afterId, limit }).map((r) => r.id)
  }

  /** Deletes up to `limit` of the oldest-arrived rows (id ≤ maxId) that are older than `before`; returns how many. */
  prune(before: number, maxId: number, limit: number): number {
    return this.deleteOld.run({ before, maxId, limit }).changes
  }
}
