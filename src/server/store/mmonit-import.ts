// What `overseer import-mmonit` writes beyond the repositories the server uses (tools/import-mmonit):
// rows keyed so that a second import finds them instead of adding them again, and the counters and
// last states the collector keeps up to date message by message, recomputed once per imported host.
import type { NewEvent } from './events'
import type { HostChanges, HostRow } from './hosts'
import { serviceColumns, type ServiceState } from './services'
import { SettingTable } from './setting-table'
import type { QueryBuilder, SqlRunner } from './sql'

/** The de-duplication key of an event (events.ts). */
export interface EventKey {
  hostId: number
  serviceNameId: number
  cls: number
  state: number
  collectedUsec: number
}

export interface ImportedNote {
  eventId: number
  date: number
  userId: number | null
  uname: string
  message: string
}

/** Events per INSERT: 11 parameters each stay under both engines' limits (SQLite 32,766, PostgreSQL 65,535). */
const EVENTS_PER_INSERT = 1000

/** The setting naming the M/Monit database a previous import read: a re-run is not a merge. */
const IMPORTED_FROM = 'import.mmonit.source'

export class MMonitImportRepository {
  private readonly settings: SettingTable
  private readonly findEvent
  private readonly findNote
  private readonly insertNote
  private readonly dismissEvent
  private readonly noteEvent
  private readonly findService
  private readonly insertService

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.settings = new SettingTable(db, sql)
    this.findEvent = sql.prepare((p: EventKey) =>
      db
        .selectFrom('event')
        .select('id')
        .where('host_id', '=', p.hostId)
        .where('service_name_id', '=', p.serviceNameId)
        .where('class', '=', p.cls)
        .where('state', '=', p.state)
        .where('collected_usec', '=', p.collectedUsec)
    )
    this.findNote = sql.prepare((p: ImportedNote) =>
      db
        .selectFrom('event_note')
        .select('id')
        .where('event_id', '=', p.eventId)
        .where('date', '=', p.date)
        .where('uname', '=', p.uname)
        .where('message', '=', p.message)
    )
    this.insertNote = sql.prepare((p: ImportedNote) =>
      db.insertInto('event_note').values({ event_id: p.eventId, date: p.date, user_id: p.userId, uname: p.uname, message: p.message })
    )
    this.dismissEvent = sql.prepare((p: { id: number }) => db.updateTable('event').set({ dismissed: 1 }).where('id', '=', p.id))
    this.noteEvent = sql.prepare((p: { id: number }) => db.updateTable('event').set({ has_note: 1 }).where('id', '=', p.id))
    this.findService = sql.prepare((p: { hostId: number; name: string }) =>
      db.selectFrom('service').select('id').where('host_id', '=', p.hostId).where('name', '=', p.name)
    )
    this.insertService = sql.prepare((p: ServiceState & { hostId: number }) =>
      db
        .insertInto('service')
        .values({ host_id: p.hostId, ...serviceColumns(p) })
        .onConflict((oc) => oc.columns(['host_id', 'name']).doNothing())
        .returning('id')
    )
  }

  /** How many hosts, users, host groups and events the target holds: an import refuses to mix into data unasked. */
  contents(): { hosts: number; users: number; hostGroups: number; events: number } {
    const count = (table: 'host' | 'user' | 'host_group' | 'event') =>
      Number(this.sql.first(this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')))!.n)
    return { hosts: count('host'), users: count('user'), hostGroups: count('host_group'), events: count('event') }
  }

  /** What the last import into this database read from (import-database.ts names it), if any. */
  importedFrom(): string | undefined {
    return this.settings.get(IMPORTED_FROM)
  }

  setImportedFrom(source: string): void {
    this.settings.set(IMPORTED_FROM, source)
  }

  hostOfAgent(agentId: string): HostRow | undefined {
    return this.sql.first(this.db.selectFrom('host').selectAll().where('agent_id', '=', agentId))
  }

  insertHost(agentId: string, hostname: string, now: number, columns: HostChanges): number {
    return this.sql.first(
      this.db
        .insertInto('host')
        .values({ ...columns, agent_id: agentId, hostname, created_at: now })
        .returning('id')
    )!.id
  }

  updateHost(id: number, changes: HostChanges): void {
    if (Object.keys(changes).length > 0) this.sql.run(this.db.updateTable('host').set(changes).where('id', '=', id))
  }

  /** The service's id, inserting it when the host has none of that name (an existing one is left as it is). */
  service(hostId: number, state: ServiceState): number {
    return this.insertService.get({ hostId, ...state })?.id ?? this.findService.get({ hostId, name: state.name })!.id
  }

  /** The host's service group of that name, created when missing. */
  serviceGroup(hostId: number, name: string): number {
    const find = () =>
      this.sql.first(this.db.selectFrom('service_group').select('id').where('host_id', '=', hostId).where('name', '=', name))
    const found = find()
    if (found) return found.id
    return this.sql.first(this.db.insertInto('service_group').values({ host_id: hostId, name }).returning('id'))!.id
  }

  addServiceGroupMember(groupId: number, serviceNameId: number): void {
    this.sql.run(
      this.db
        .insertInto('service_group_member')
        .values({ group_id: groupId, service_name_id: serviceNameId })
        .onConflict((oc) => oc.doNothing())
    )
  }

  /**
   * Stores the events not stored already (same key), several per statement: one round trip per thousand
   * events instead of one each, on PostgreSQL above all.
   */
  insertEvents(events: readonly Required<NewEvent>[]): void {
    for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
      this.sql.run(
        this.db
          .insertInto('event')
          .values(events.slice(i, i + EVENTS_PER_INSERT))
          .onConflict((oc) => oc.doNothing())
      )
    }
  }

  eventId(key: EventKey): number | undefined {
    return this.findEvent.get(key)?.id
  }

  /** A user dismissed the event in M/Monit (an `eventfilter` row): dismissed here for everyone. */
  dismiss(eventId: number): void {
    this.dismissEvent.run({ id: eventId })
  }

  /** Adds the note unless the same one (event, date, author, text) is there; true when added. */
  addNote(note: ImportedNote): boolean {
    if (this.findNote.get(note)) return false
    this.insertNote.run(note)
    this.noteEvent.run({ id: note.eventId })
    return true
  }

  /** The host's and its services' event counters, counted again from the events stored. */
  recountEvents(hostId: number): void {
    this.sql.run(
      this.db
        .updateTable('host')
        .set((eb) => ({
          events_count: eb
            .selectFrom('event')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('event.host_id', '=', hostId)
        }))
        .where('id', '=', hostId)
    )
    this.sql.run(
      this.db
        .updateTable('service')
        .set((eb) => ({
          events_count: eb
            .selectFrom('event')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('event.host_id', '=', hostId)
            // event_dedup's prefix: a range count per service, not a scan of the host's events.
            .whereRef('event.service_name_id', '=', 'service.name_id')
        }))
        .where('host_id', '=', hostId)
    )
  }

  /**
   * The newest state per service and event class of the host, from its events, where the collector has
   * no newer one: its next message is then compared with what M/Monit saw last, not taken as a first.
   */
  rememberLastStates(hostId: number): void {
    this.sql.run(
      this.db
        .insertInto('event_state')
        .columns(['host_id', 'service_name', 'class', 'state', 'collected_usec'])
        .expression(
          // The newest agent time per service and class: one pass over the host's events (event_dedup's
          // prefix), then each newest event found by its key.
          this.db
            .selectFrom('event as e')
            .innerJoin(
              (eb) =>
                eb
                  .selectFrom('event')
                  .select(['service_name_id', 'class', (g) => g.fn.max('collected_usec').as('newest')])
                  .where('host_id', '=', hostId)
                  .groupBy(['service_name_id', 'class'])
                  .as('n'),
              (join) =>
                join
                  .onRef('n.service_name_id', '=', 'e.service_name_id')
                  .onRef('n.class', '=', 'e.class')
                  .onRef('n.newest', '=', 'e.collected_usec')
            )
            .select(['e.host_id', 'e.service_name', 'e.class', 'e.state', 'e.collected_usec'])
            .where('e.host_id', '=', hostId)
        )
        .onConflict((oc) =>
          oc
            .columns(['host_id', 'service_name', 'class'])
            .doUpdateSet((eb) => ({ state: eb.ref('excluded.state'), collected_usec: eb.ref('excluded.collected_usec') }))
            .whereRef('event_state.collected_usec', '<', 'excluded.collected_usec')
        )
    )
  }
}
