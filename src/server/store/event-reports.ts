// The reads and the few writes behind reports/events/*. Every filter is a condition on `event` columns
// only, so the count needs no join and SQLite can answer both the count and the page from one index
// (host_id, date / service_name_id, date / date / the partial index of active errors). Id lists travel
// as one parameter (the dialect's idList), as in status.ts, so the SQL text does not vary with their length.
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { SortDir } from '../../shared/api/common'
import type { EventSortKey } from '../../shared/api/events'
import type { Dialect } from './dialect'
import type { Schema } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

/** Every field narrows the selection; undefined ones do not. */
export interface EventFilter {
  /** The hosts the caller may view; undefined: every host. */
  visible?: readonly number[]
  hostIds?: readonly number[]
  hostGroupId?: number
  serviceNameId?: number
  serviceGroupId?: number
  serviceType?: number
  /** Event class bit; a value with several bits matches any of them. */
  eventType?: number
  /** 0 success (also matches the raw "changed not" 4), 1 error, 2 change */
  state?: number
  /** 0 all, 1 active errors, 2 active errors not dismissed */
  active?: number
  /** Unix seconds, inclusive */
  dateFrom?: number
  dateTo?: number
}

export interface EventRow {
  id: number
  date: number
  hostid: number
  hostname: string
  servicename: string
  servicenameid: number
  servicetype: number
  class: number
  state: number
  action: number
  message: string
  active: number
  dismissed: number
  has_note: number
}

export interface EventNoteRow {
  date: number
  uname: string
  message: string
}

/** Events per 10-minute sample and state kind (0 success, 1 error, 2 change). */
export interface EventBucketCount {
  bucket: number
  kind: number
  n: number
}

type EventQuery<O> = SelectQueryBuilder<Schema, 'event', O>

const sortExpression: Record<EventSortKey, Expression<unknown>> = {
  date: sql.ref('event.date'),
  hostname: sql.ref('host.hostname'),
  servicename: sql.ref('event.service_name'),
  event: sql.ref('event.message'),
  note: sql.ref('event.has_note')
}

export class EventReportRepository {
  private readonly eventById
  private readonly notesOfEvent
  private readonly dismissEvent
  private readonly insertNote
  private readonly markNoted

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.eventById = sql.prepare((p: { id: number }) => withColumns(db.selectFrom('event').where('event.id', '=', p.id)))
    this.notesOfEvent = sql.prepare((p: { id: number }) =>
      db.selectFrom('event_note').select(['date', 'uname', 'message']).where('event_id', '=', p.id).orderBy('date').orderBy('id')
    )
    this.dismissEvent = sql.prepare((p: { id: number }) => db.updateTable('event').set({ dismissed: 1 }).where('id', '=', p.id))
    this.insertNote = sql.prepare((p: { eventId: number; date: number; userId: number | null; uname: string; message: string }) =>
      db.insertInto('event_note').values({ event_id: p.eventId, date: p.date, user_id: p.userId, uname: p.uname, message: p.message })
    )
    this.markNoted = sql.prepare((p: { id: number }) => db.updateTable('event').set({ has_note: 1 }).where('id', '=', p.id))
  }

  count(filter: EventFilter): number {
    const query = filtered(this.sql.dialect, this.db.selectFrom('event'), filter).select((eb) => eb.fn.countAll<number>().as('n'))
    return this.sql.first(query)!.n
  }

  /** One page; ties are broken by date and id (newest first), so pages never overlap. */
  page(filter: EventFilter, sort: EventSortKey, dir: SortDir, offset: number, limit: number): EventRow[] {
    let query = withColumns(filtered(this.sql.dialect, this.db.selectFrom('event'), filter)).orderBy(sortExpression[sort], dir)
    // For the date sort the id follows the same direction, so the (date, rowid) index order is the whole order.
    query = sort === 'date' ? query.orderBy('event.id', dir) : query.orderBy('event.date', 'desc').orderBy('event.id', 'desc')
    return this.sql.all(query.limit(limit).offset(offset))
  }

  event(id: number): EventRow | undefined {
    return this.eventById.get({ id })
  }

  notes(eventId: number): EventNoteRow[] {
    return this.notesOfEvent.all({ id: eventId })
  }

  /** The notes of several events (a page of the list at most), oldest first, by event id. */
  notesOfEvents(eventIds: readonly number[]): Map<number, EventNoteRow[]> {
    const byEvent = new Map<number, EventNoteRow[]>()
    if (eventIds.length === 0) return byEvent
    const rows = this.sql.all(
      this.db
        .selectFrom('event_note')
        .select(['event_id', 'date', 'uname', 'message'])
        .where('event_id', 'in', [...eventIds])
        .orderBy('date')
        .orderBy('id')
    )
    for (const { event_id: id, ...note } of rows) byEvent.set(id, [...(byEvent.get(id) ?? []), note])
    return byEvent
  }

  dismiss(id: number): void {
    this.dismissEvent.run({ id })
  }

  addNote(eventId: number, author: { userId: number | null; uname: string }, message: string, date: number): void {
    this.sql.transaction(() => {
      this.insertNote.run({ eventId, date, userId: author.userId, uname: author.uname, message })
      this.markNoted.run({ id: eventId })
    })
  }

  /** Counts from `from` to `to` (inclusive) per 10-minute sample since `from`; the last sample takes `to` itself. */
  buckets(from: number, to: number, visible: readonly number[] | undefined, sample: number): EventBucketCount[] {
    const last = Math.floor((to - from) / sample) - 1
    const bucket = this.sql.dialect.smaller(sql<number>`CAST((event.date - ${from}) / ${sample} AS INTEGER)`, last)
    // Raw state 4 ("changed not") counts as a success, as in the state filter.
    const kind = sql<number>`CASE event.state WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 0 END`
    const query = filtered(this.sql.dialect, this.db.selectFrom('event'), { visible, dateFrom: from, dateTo: to })
      .select((eb) => [bucket.as('bucket'), kind.as('kind'), eb.fn.countAll<number>().as('n')])
      // By the output names: PostgreSQL would see the expressions' parameters as other values than the select's.
      .groupBy([sql.ref('bucket'), sql.ref('kind')])
    return this.sql.all(query)
  }
}

/**
 * SQLite keeps the left table of a CROSS JOIN as the outer loop: the page then walks the same event index
 * as its count, rather than every event of the visible hosts to find, say, their few active errors.
 */
function withColumns<O>(query: EventQuery<O>) {
  return query
    .crossJoin('host')
    .whereRef('host.id', '=', 'event.host_id')
    .select([
      'event.id',
      'event.date',
      'event.host_id as hostid',
      'host.hostname',
      'event.service_name as servicename',
      'event.service_name_id as servicenameid',
      'event.service_type as servicetype',
      'event.class',
      'event.state',
      'event.action',
      'event.message',
      'event.active',
      'event.dismissed',
      'event.has_note'
    ])
}

function filtered<O>(d: Dialect, query: EventQuery<O>, f: EventFilter): EventQuery<O> {
  let q = query
  const hostId = hostColumn(f)
  if (f.visible) q = q.where(hostId, 'in', d.idList(f.visible))
  if (f.hostIds?.length) q = q.where(hostId, 'in', d.idList(f.hostIds))
  if (f.hostGroupId !== undefined) {
    const group = f.hostGroupId
    q = q.where(hostId, 'in', (eb) =>
      eb.selectFrom('host_group_member').select('host_group_member.host_id').where('host_group_member.group_id', '=', group)
    )
  }
  if (f.serviceNameId !== undefined) q = q.where('event.service_name_id', '=', f.serviceNameId)
  if (f.serviceGroupId !== undefined) q = inServiceGroup(q, f.serviceGroupId)
  if (f.serviceType !== undefined) q = q.where('event.service_type', '=', f.serviceType)
  if (f.eventType !== undefined) q = q.where(classMatches(f.eventType, narrowedToFewHosts(f)))
  if (f.state !== undefined) q = q.where(stateMatches(f.state))
  // Literal 1 and 0, not bound values: only then does SQLite use the partial index `WHERE active = 1`.
  if (f.active === 1 || f.active === 2) q = q.where(sql<SqlBool>`event.active = 1`)
  if (f.active === 2) q = q.where(sql<SqlBool>`event.dismissed = 0`)
  if (f.dateFrom !== undefined) q = q.where('event.date', '>=', f.dateFrom)
  if (f.dateTo !== undefined) q = q.where('event.date', '<=', f.dateTo)
  return q
}

/**
 * Active errors are few (failing now): the partial indexes of active rows find them fastest, but for a
 * sorted page SQLite prefers (host_id, date) of the hosts filtered on. `+` keeps host_id off indexes then.
 */
function hostColumn(f: EventFilter): Expression<number> {
  return f.active === 1 || f.active === 2 ? sql<number>`+event.host_id` : sql.ref('event.host_id')
}

/** A service group belongs to one host and lists service names: both together select its services' events. */
function inServiceGroup<O>(q: EventQuery<O>, groupId: number): EventQuery<O> {
  return q
    .where('event.host_id', '=', (eb) =>
      eb.selectFrom('service_group').select('service_group.host_id').where('service_group.id', '=', groupId)
    )
    .where('event.service_name_id', 'in', (eb) =>
      eb
        .selectFrom('service_group_member')
        .select('service_group_member.service_name_id')
        .where('service_group_member.group_id', '=', groupId)
    )
}

/**
 * A host filter picks far fewer rows than a class does, but without table statistics SQLite may take the
 * (class, date) index instead of (host_id, date). The unary `+` keeps the class column off any index then.
 */
function classMatches(bits: number, fewHosts: boolean): Expression<SqlBool> {
  const singleBit = bits > 0 && (bits & (bits - 1)) === 0
  if (!singleBit) return sql<SqlBool>`(event.class & ${bits}) != 0`
  return fewHosts ? sql<SqlBool>`+event.class = ${bits}` : sql<SqlBool>`event.class = ${bits}`
}

const FEW_HOSTS = 500

function narrowedToFewHosts(f: EventFilter): boolean {
  return (
    Boolean(f.hostIds?.length) ||
    f.hostGroupId !== undefined ||
    f.serviceGroupId !== undefined ||
    (f.visible !== undefined && f.visible.length <= FEW_HOSTS)
  )
}

function stateMatches(state: number): Expression<SqlBool> {
  return state === 0 || state === 4 ? sql<SqlBool>`event.state IN (0, 4)` : sql<SqlBool>`event.state = ${state}`
}
