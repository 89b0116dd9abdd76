// Events with their notes (`eventnotice`) and dismissals (`eventfilter`), and which errors are active.
// Keyed as the collector keys them (host, service, class, state, agent time), so a second run finds the
// events already there. Notes and dismissals are read first, whole: people write them, there are few;
// events are read page by page (there may be millions) and written a page per statement or few. Afterwards each host's event counters and last
// states per class are computed once from what is stored.
import type { NewEvent } from '../../store/events'
import { MMonitImportRepository, type EventKey } from '../../store/mmonit-import'
import { forEachPage, numberOf, textOf } from './pages'
import type { SourceFilter, SourceRow } from '../../store/mmonit-source/source'
import type { ImportContext, ImportOptions, ImportStep, Skipped } from './step'

/** The `event` columns the import reads: the API source lays its answers out in them too. */
export const EVENT_COLUMNS = [
  'id',
  'hostid',
  'collectedsec',
  'collectedusec',
  'service_nameid',
  'servicetype',
  'event',
  'state',
  'action',
  'message',
  'active'
]

interface Notes {
  notices: Map<number, { date: number; uname: string; notice: string }[]>
  dismissed: Set<number>
}

const since = (options: ImportOptions): SourceFilter | undefined =>
  options.since === undefined ? undefined : { column: 'collectedsec', min: options.since }

export const eventsStep: ImportStep = {
  name: 'events',
  count: (source, options) => source.count('event', since(options)),
  async run(ctx) {
    const repo = new MMonitImportRepository(ctx.target.db, ctx.target.sql)
    const notes = await readNotes(ctx)
    const hosts = new Set<number>()
    const skips = new Map<string, number>()
    let read = 0
    let imported = 0
    const page = { table: 'event', columns: EVENT_COLUMNS, key: ['id'], where: since(ctx.options) }
    await forEachPage(ctx.source, page, ctx.options.batchRows, (rows) => {
      ctx.target.sql.transaction(() => {
        const batch: Required<NewEvent>[] = []
        const annotated: { mmonitId: number; key: EventKey }[] = []
        for (const row of rows) {
          const event = eventOf(ctx, row)
          if (typeof event === 'string') {
            skips.set(event, (skips.get(event) ?? 0) + 1)
            continue
          }
          batch.push(event)
          hosts.add(event.host_id)
          const mmonitId = numberOf(row.id)
          if (notes.notices.has(mmonitId) || notes.dismissed.has(mmonitId)) annotated.push({ mmonitId, key: keyOf(event) })
        }
        repo.insertEvents(batch)
        imported += batch.length
        for (const { mmonitId, key } of annotated) annotate(ctx, repo, repo.eventId(key)!, mmonitId, notes)
      })
      read += rows.length
      ctx.progress(read)
    })
    for (const hostId of hosts) {
      ctx.target.sql.transaction(() => {
        repo.recountEvents(hostId)
        repo.rememberLastStates(hostId)
      })
    }
    const skipped: Skipped[] = [...skips].map(([why, rows]) => ({ what: `${rows.toLocaleString('en')} events`, why, rows }))
    return { imported, skipped }
  }
}

/** The event as stored here, or why it cannot be. */
function eventOf(ctx: ImportContext, row: SourceRow): Required<NewEvent> | string {
  const hostId = ctx.ids.hosts.get(numberOf(row.hostid))
  if (hostId === undefined) return 'their host was not imported'
  const service = ctx.ids.names.get(numberOf(row.service_nameid))
  if (!service) return 'their service name is missing from the name table'
  const sec = numberOf(row.collectedsec)
  return {
    host_id: hostId,
    service_name_id: ctx.target.services.nameId(service),
    service_name: service,
    service_type: numberOf(row.servicetype),
    class: numberOf(row.event),
    state: numberOf(row.state),
    action: numberOf(row.action),
    message: textOf(row.message),
    collected_usec: sec * 1_000_000 + numberOf(row.collectedusec),
    date: sec,
    active: numberOf(row.active) ? 1 : 0
  }
}

function keyOf(e: Required<NewEvent>): EventKey {
  return { hostId: e.host_id, serviceNameId: e.service_name_id, cls: e.class, state: e.state, collectedUsec: e.collected_usec }
}

/** M/Monit's notes on the event, and its dismissal. */
function annotate(ctx: ImportContext, repo: MMonitImportRepository, eventId: number, mmonitId: number, notes: Notes): void {
  for (const n of notes.notices.get(mmonitId) ?? []) {
    repo.addNote({ eventId, date: n.date, userId: ctx.ids.users.get(n.uname) ?? null, uname: n.uname, message: n.notice })
  }
  if (notes.dismissed.has(mmonitId)) repo.dismiss(eventId)
}

async function readNotes(ctx: ImportContext): Promise<Notes> {
  const notes: Notes = { notices: new Map(), dismissed: new Set() }
  const noticePage = { table: 'eventnotice', columns: ['eventid', 'date', 'uname', 'notice'], key: ['eventid', 'date', 'uname', 'notice'] }
  await forEachPage(ctx.source, noticePage, ctx.options.batchRows, (rows) => {
    for (const row of rows) {
      const eventId = numberOf(row.eventid)
      const list = notes.notices.get(eventId) ?? []
      list.push({ date: numberOf(row.date), uname: textOf(row.uname), notice: textOf(row.notice) })
      notes.notices.set(eventId, list)
    }
  })
  await forEachPage(
    ctx.source,
    { table: 'eventfilter', columns: ['eventid', 'uname'], key: ['eventid', 'uname'] },
    ctx.options.batchRows,
    (rows) => {
      for (const row of rows) notes.dismissed.add(numberOf(row.eventid))
    }
  )
  return notes
}
