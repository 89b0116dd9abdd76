// The server's own runs (migration 005): the start, a periodically refreshed alive stamp, the clean stop.
// The gaps between runs are the server's downtime (domain/server-runs.ts).
import { serverDowntimes, type Downtime } from '../domain/server-runs'
import type { Span } from '../domain/uptime'
import type { Generated } from 'kysely'
import type { QueryBuilder, SqlRunner } from './sql'

export interface ServerRunTable {
  id: Generated<number>
  /** Unix seconds */
  started_at: number
  /** Unix seconds: the last moment this run is known to have been running */
  alive_at: number
  /** Unix seconds; null while running, and for a run that ended without a clean stop */
  stopped_at: number | null
  /** Unix seconds since which its collector could not store what agents sent (migration 024); null while it stores */
  reports_held_since: Generated<number | null>
}

type ServerRunTables = { server_run: ServerRunTable }

export class ServerRunRepository {
  private readonly insertRun
  private readonly stampAlive
  private readonly stampStop
  private readonly startingAfter
  private readonly lastStartingBy
  private readonly setReportsHeld
  private readonly othersHolding

  constructor(db: QueryBuilder, sql: SqlRunner) {
    const q = db.withTables<ServerRunTables>()
    const columns = ['started_at', 'alive_at', 'stopped_at'] as const
    this.insertRun = sql.prepare((p: { now: number }) =>
      q.insertInto('server_run').values({ started_at: p.now, alive_at: p.now, stopped_at: null }).returning('id')
    )
    this.stampAlive = sql.prepare((p: { id: number; now: number }) =>
      q.updateTable('server_run').set({ alive_at: p.now }).where('id', '=', p.id)
    )
    this.stampStop = sql.prepare((p: { id: number; now: number }) =>
      q.updateTable('server_run').set({ alive_at: p.now, stopped_at: p.now }).where('id', '=', p.id)
    )
    this.setReportsHeld = sql.prepare((p: { id: number; since: number | null }) =>
      q.updateTable('server_run').set({ reports_held_since: p.since }).where('id', '=', p.id)
    )
    this.othersHolding = sql.prepare((p: { id: number; aliveSince: number }) =>
      q
        .selectFrom('server_run')
        .select('id')
        .where('id', '!=', p.id)
        .where('stopped_at', 'is', null)
        .where('alive_at', '>=', p.aliveSince)
        .where('reports_held_since', 'is not', null)
        .limit(1)
    )
    // A gap overlapping [from, …) ends at a start after `from`; it begins at the end of the run before
    // that start, which is either one of them or the last run that started by `from`.
    this.startingAfter = sql.prepare((p: { from: number }) =>
      q.selectFrom('server_run').select(columns).where('started_at', '>', p.from).orderBy('started_at').orderBy('id')
    )
    this.lastStartingBy = sql.prepare((p: { from: number }) =>
      q
        .selectFrom('server_run')
        .select(columns)
        .where('started_at', '<=', p.from)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
    )
  }

  /** Records a start at `now` (unix seconds); returns the run's id. */
  begin(now: number): number {
    return this.insertRun.get({ now })!.id
  }

  /** The run is still running at `now`. */
  alive(id: number, now: number): void {
    this.stampAlive.run({ id, now })
  }

  /** The run stopped cleanly at `now`. */
  stop(id: number, now: number): void {
    this.stampStop.run({ id, now })
  }

  /** Since when the run's collector holds reports it could not store (unix seconds), or null: it stores. */
  reportsHeld(id: number, since: number | null): void {
    this.setReportsHeld.run({ id, since })
  }

  /** Whether a run other than `id`, alive at `aliveSince` or later, holds reports it could not store. */
  othersHoldReports(id: number, aliveSince: number): boolean {
    return this.othersHolding.get({ id, aliveSince }) !== undefined
  }

  /** The server's downtimes overlapping the span, in order. */
  downtimes(span: Span): Downtime[] {
    const before = this.lastStartingBy.get({ from: span.from })
    const runs = [...(before ? [before] : []), ...this.startingAfter.all({ from: span.from })]
    return serverDowntimes(runs).filter((gap) => gap.start < span.to && gap.end > span.from)
  }
}
