// reports/events/{list,get,summary,dismiss} (spec: Event reports; compat 6.4, PAGE-1..4) and our
// reports/events/note. Every read and write covers only events of hosts the caller may view; an event
// of another host answers exactly like one that does not exist.
import { z } from 'zod'
import { actionLabels, eventClasses, EventState, Permission, serviceTypeLabels, type EventClass } from '../../shared/codes'
import { mayOnHost, viewableHostIds, type Principal } from '../domain/permissions'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import { arg, sortedPageArgs } from '../../shared/api/args'
import type { SortDir } from '../../shared/api/common'
import type { EventFilter, EventReportRepository, EventRow } from '../store/event-reports'
import { actorOf } from './audit'
import type { ApiDeps } from './deps'
import {
  eventGetAnswer,
  eventListAnswer,
  eventSortKeys,
  eventSummaryAnswer,
  type EventDetail,
  type EventListEntry,
  type EventSortKey
} from '../../shared/api/events'
import { emptyAnswer } from '../../shared/api/common'

const DEFAULT_PAGE = 100
const MAX_PAGE = 1000
const SUMMARY_WINDOW = 86_400
const SUMMARY_SAMPLE = 600

const listParams = {
  active: arg.intIn(0, 2, '0, 1 or 2').optional(),
  hostid: z.array(arg.int()).optional(),
  hostgroupid: arg.int().optional(),
  servicenameid: arg.int().optional(),
  servicegroupid: arg.int().optional(),
  servicetype: arg.intIn(0, 8, 'a service type 0 to 8').optional(),
  // Bits up to Monit's highest (exist, 2^30); several bits match any of them.
  eventtype: arg.intIn(1, 2 ** 31 - 1, 'an event type bit').optional(),
  // 4 (Monit's "changed not") is taken, and read as 0.
  state: arg.intOf([0, 1, 2, 4], '0, 1, 2 or 4').optional(),
  datefrom: arg.int('a unix timestamp').optional(),
  dateto: arg.int('a unix timestamp').optional(),
  // Ours: 1 adds each record's notes (the console's CSV export carries their text).
  notes: arg.intIn(0, 1, '0 or 1').optional(),
  ...sortedPageArgs
}

export function eventReportEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const events = deps.store.eventReports
  const viewable = (principal: Principal, id: number): EventRow => {
    const row = events.event(id)
    if (!row || !mayOnHost(principal, row.hostid, Permission.View)) throw new HttpError(404, `no event with id ${id}`)
    return row
  }
  const detail = (row: EventRow) => ({ records: { event: eventDetail(row, events) } })

  return [
    endpoint({
      path: 'reports/events/list',
      pureRead: true,
      summary: 'Events, filtered, sorted and paged',
      answer: eventListAnswer,
      methods: ['GET', 'POST'],
      params: listParams,
      handle: ({ params, principal }) => {
        const filter = listFilter(params, viewableHostIds(principal))
        const sort = sortKey(params.sort)
        const dir = sortDir(params.dir, sort)
        const startIndex = params.startindex ?? 0
        const pageSize = Math.min(params.results ?? DEFAULT_PAGE, MAX_PAGE)
        const totalRecords = events.count(filter)
        // Past the end is an empty page, not an error (PAGE-3); skip the query.
        const rows = startIndex < totalRecords ? events.page(filter, sort, dir, startIndex, pageSize) : []
        const notes = params.notes === 1 ? events.notesOfEvents(rows.filter((r) => r.has_note).map((r) => r.id)) : undefined
        return {
          records: rows.map((row) => (notes ? { ...listEntry(row), notes: notes.get(row.id) ?? [] } : listEntry(row))),
          recordsReturned: rows.length,
          pageSize,
          totalRecords,
          startIndex,
          sort,
          dir
        }
      }
    }),

    endpoint({
      path: 'reports/events/get',
      pureRead: true,
      summary: 'One event with its notes',
      answer: eventGetAnswer,
      methods: ['GET', 'POST'],
      params: { id: arg.int() },
      handle: ({ params, principal }) => detail(viewable(principal, params.id))
    }),

    endpoint({
      path: 'reports/events/summary',
      pureRead: true,
      summary: 'Failed, changed and succeeded events of the last 24 hours in 10-minute samples',
      answer: eventSummaryAnswer,
      methods: ['GET', 'POST'],
      params: {},
      handle: ({ principal }) => summary(events, viewableHostIds(principal), Math.floor(Date.now() / 1000))
    }),

    // The spec lets every event report be called with GET or POST; the CSRF rule still applies.
    endpoint({
      path: 'reports/events/dismiss',
      summary: 'Dismisses an active error event',
      answer: emptyAnswer,
      methods: ['GET', 'POST'],
      mutation: true,
      params: { id: arg.int() },
      handle: (ctx) => {
        const id = viewable(ctx.principal, ctx.params.id).id
        deps.store.auditLog.recording(actorOf(ctx), { action: 'event.dismiss', target: `event ${id}` }, () => events.dismiss(id))
        return {}
      }
    }),

    // Ours: viewers may annotate the events of the hosts they view.
    endpoint({
      path: 'reports/events/note',
      asUser: true,
      summary: 'Adds a note to an event',
      extension: true,
      answer: eventGetAnswer,
      methods: ['POST'],
      mutation: true,
      params: { id: arg.int(), message: arg.required(4000) },
      handle: (ctx) => {
        const { params, principal } = ctx
        const row = viewable(principal, params.id)
        deps.store.auditLog.recording(actorOf(ctx), { action: 'event.note', target: `event ${row.id}` }, () =>
          events.addNote(row.id, principal, params.message, Math.floor(Date.now() / 1000))
        )
        return detail(viewable(principal, row.id))
      }
    })
  ]
}

type ListParams = z.output<z.ZodObject<typeof listParams>>

function listFilter(p: ListParams, visible: number[] | undefined): EventFilter {
  return {
    visible,
    hostIds: p.hostid,
    hostGroupId: p.hostgroupid,
    serviceNameId: p.servicenameid,
    serviceGroupId: p.servicegroupid,
    serviceType: p.servicetype,
    eventType: p.eventtype,
    state: p.state,
    active: p.active,
    dateFrom: p.datefrom,
    dateTo: p.dateto
  }
}

function sortKey(value: string | undefined): EventSortKey {
  const key = value?.trim().toLowerCase()
  return eventSortKeys.find((k) => k === key) ?? 'date'
}

/** Newest first by default; the other columns read naturally ascending. */
function sortDir(value: string | undefined, sort: EventSortKey): SortDir {
  const dir = value?.trim().toLowerCase()
  if (dir === 'asc' || dir === 'desc') return dir
  return sort === 'date' ? 'desc' : 'asc'
}

/** The documented event state codes: Monit's 4 ("changed not") reads as 0 (success). */
function stateCode(state: number): number {
  return state === EventState.ChangedNot ? EventState.Succeeded : state
}

function listEntry(e: EventRow): EventListEntry {
  const state = stateCode(e.state)
  return {
    id: e.id,
    date: e.date,
    hostname: e.hostname,
    hostid: e.hostid,
    servicename: e.servicename,
    servicenameid: e.servicenameid,
    event: e.message,
    eventtype: state,
    note: e.has_note,
    servicetype: e.servicetype,
    state,
    action: e.action,
    message: e.message,
    active: e.active
  }
}

const classById = new Map<number, EventClass>(eventClasses.map((c) => [c.id, c]))

/** The class's text for the state ("Does not exist", "Exists", "Checksum changed"), else its name. */
function eventLabel(cls: number, state: number): string {
  const c = classById.get(cls)
  if (!c) return 'Unknown'
  switch (state) {
    case EventState.Failed:
      return c.failed
    case EventState.Succeeded:
      return c.succeeded
    case EventState.Changed:
      return c.changed ?? c.name
    default:
      return c.changedNot ?? c.succeeded
  }
}

function eventDetail(e: EventRow, events: EventReportRepository): EventDetail {
  return {
    id: e.id,
    hostid: e.hostid,
    host: e.hostname,
    date: e.date,
    servicename: e.servicename,
    servicetype: serviceTypeLabels[e.servicetype] ?? 'Unknown',
    event: eventLabel(e.class, e.state),
    eventstate: stateCode(e.state),
    action: actionLabels[e.action] ?? 'unknown',
    message: e.message,
    note: events.notes(e.id),
    servicenameid: e.servicenameid,
    active: e.active,
    dismissed: e.dismissed
  }
}

const summaryLabels = [
  { label: 'Failed', kind: 1 },
  { label: 'Changed', kind: 2 },
  { label: 'Succeeded', kind: 0 }
] as const

/** 144 samples of 10 minutes over the last 24 hours; each pair is [sample start, count]. */
function summary(events: EventReportRepository, visible: number[] | undefined, now: number) {
  const datefrom = now - SUMMARY_WINDOW
  const samples = SUMMARY_WINDOW / SUMMARY_SAMPLE
  const counts = summaryLabels.map(() => new Array<number>(samples).fill(0))
  for (const { bucket, kind, n } of events.buckets(datefrom, now, visible, SUMMARY_SAMPLE)) {
    counts[summaryLabels.findIndex((l) => l.kind === kind)][bucket] += n
  }
  return {
    datefrom,
    dateto: now,
    events: summaryLabels.map(({ label }, i) => ({
      label,
      data: counts[i].map((n, b): [number, number] => [datefrom + b * SUMMARY_SAMPLE, n])
    }))
  }
}
