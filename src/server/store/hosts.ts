// Hosts: registration and per-message state (collector), silence detection (watchdog).
import type { Selectable, Updateable } from 'kysely'
import type { HostTable } from './schema'
import { preparedForNullable, type QueryBuilder, type SqlRunner } from './sql'

export type HostRow = Selectable<HostTable>
export type HostChanges = Updateable<HostTable>

/**
 * Where the server calls the agent back, what the agent reports of it, and where its messages come from:
 * read and written by each message (collector/ingest.ts callBack).
 */
const callBackColumns = [
  'ipaddr_in',
  'port_in',
  'ssl_in',
  'reported_ipaddr',
  'reported_port',
  'reported_ssl',
  'source_ipaddr',
  'last_source_ipaddr'
] as const
export type CallBackColumn = (typeof callBackColumns)[number]

/** Everything one collector message sets on its host: a fixed column set, so one prepared statement. */
export type HostReport = Pick<
  HostRow,
  | 'hostname'
  | CallBackColumn
  | 'unix_socket'
  | 'agent_user'
  | 'agent_password'
  | 'poll'
  | 'start_delay'
  | 'agent_version'
  | 'incarnation'
  | 'agent_uptime'
  | 'control_file'
  | 'platform_name'
  | 'platform_release'
  | 'platform_version'
  | 'platform_machine'
  | 'cpu_count'
  | 'memory_kb'
  | 'swap_kb'
  | 'status'
  | 'inactive_since'
  | 'last_modified'
  | 'heartbeat'
  | 'heartbeat_deadline_ms'
  | 'snapshot_usec'
  | 'services_total'
  | 'services_failed'
  | 'services_changed'
  | 'services_unmonitored'
  | 'led'
  | 'status_text'
  | 'cpu'
  | 'mem'
>

/** What the collector needs to know about a host before applying a message (narrow: reads cost per column). */
const reportingColumns = [
  'id',
  'hostname',
  'keepname',
  'status',
  'heartbeat',
  'skew',
  'poll',
  'last_modified',
  'snapshot_usec',
  'inactive_since',
  'credentials_pinned',
  'agent_user',
  'agent_password',
  ...callBackColumns,
  'cpu',
  'mem',
  'services_total',
  'services_failed',
  'services_changed',
  'services_unmonitored'
] as const
export type ReportingHost = Pick<HostRow, (typeof reportingColumns)[number]>

const reportColumns: readonly (keyof HostReport)[] = [
  'hostname',
  ...callBackColumns,
  'unix_socket',
  'agent_user',
  'agent_password',
  'poll',
  'start_delay',
  'agent_version',
  'incarnation',
  'agent_uptime',
  'control_file',
  'platform_name',
  'platform_release',
  'platform_version',
  'platform_machine',
  'cpu_count',
  'memory_kb',
  'swap_kb',
  'status',
  'inactive_since',
  'last_modified',
  'heartbeat',
  'heartbeat_deadline_ms',
  'snapshot_usec',
  'services_total',
  'services_failed',
  'services_changed',
  'services_unmonitored',
  'led',
  'status_text',
  'cpu',
  'mem'
]

export class HostRepository {
  private readonly reportingByAgent
  private readonly byId
  private readonly insertNew
  private readonly dueForSilence
  private readonly cyclesWatched
  private readonly writeWatchedDeadline
  private readonly bumpEvents
  private readonly writeReport

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    const hosts = () => db.selectFrom('host').selectAll()
    this.reportingByAgent = sql.prepare((p: { agentId: string }) =>
      // Locked for the message's transaction: two instances storing one agent's messages take turns.
      sql.dialect.lockingRead(db.selectFrom('host').select(reportingColumns).where('agent_id', '=', p.agentId))
    )
    this.byId = sql.prepare((p: { id: number }) => hosts().where('id', '=', p.id))
    this.insertNew = sql.prepare((p: { agentId: string; hostname: string; now: number }) =>
      db
        .insertInto('host')
        .values({ agent_id: p.agentId, hostname: p.hostname, created_at: p.now, last_modified: p.now })
        .onConflict((oc) => oc.column('agent_id').doNothing())
        .returning('id')
    )
    this.dueForSilence = sql.prepare((p: { nowMs: number }) =>
      hosts()
        .where('heartbeat', '=', 1)
        .where('status', '=', 0)
        .where('heartbeat_deadline_ms', '<=', p.nowMs)
        .orderBy('heartbeat_deadline_ms')
    )
    this.cyclesWatched = sql.prepare((_: Record<string, never>) =>
      db.selectFrom('host').select(['poll', 'skew']).distinct().where('heartbeat', '=', 1).where('status', '=', 0)
    )
    this.writeWatchedDeadline = preparedForNullable(
      (p: { poll: number; skew: number | null; deadlineMs: number | null }) => p.skew === null,
      (forNull) =>
        sql.prepare((p: { poll: number; skew: number | null; deadlineMs: number | null }) =>
          db
            .updateTable('host')
            .set({ heartbeat_deadline_ms: p.deadlineMs })
            .where('heartbeat', '=', 1)
            .where('status', '=', 0)
            .where('poll', '=', p.poll)
            .where('skew', forNull ? 'is' : '=', forNull ? null : p.skew)
        )
    )
    this.writeReport = sql.prepare((p: HostReport & { id: number }) =>
      db
        .updateTable('host')
        .set(Object.fromEntries(reportColumns.map((c) => [c, p[c]])))
        .where('id', '=', p.id)
    )
    this.bumpEvents = sql.prepare((p: { id: number; count: number }) =>
      db
        .updateTable('host')
        .set((eb) => ({ events_count: eb('events_count', '+', p.count) }))
        .where('id', '=', p.id)
    )
  }

  /** The host of an agent as the collector needs it, if registered. */
  reportingHost(agentId: string): ReportingHost | undefined {
    return this.reportingByAgent.get({ agentId })
  }

  /**
   * The hosts of several agents at once (those registered), locked in id order: instances locking
   * overlapping batches of hosts take turns instead of deadlocking.
   */
  reportingHosts(agentIds: readonly string[]): (ReportingHost & { agent_id: string })[] {
    if (agentIds.length === 0) return []
    return this.sql.all(
      this.sql.dialect.lockingRead(
        this.db
          .selectFrom('host')
          .select([...reportingColumns, 'agent_id'])
          .where('agent_id', 'in', [...new Set(agentIds)])
          .orderBy('id')
      )
    )
  }

  findById(id: number): HostRow | undefined {
    return this.byId.get({ id })
  }

  /** A new agent's host; the one another instance registered meanwhile when both got the agent's first message. */
  register(agentId: string, hostname: string, now: number): HostRow {
    const id = this.insertNew.get({ agentId, hostname, now })?.id ?? this.reportingHost(agentId)!.id
    return this.findById(id)!
  }

  /** Stores what a collector message tells about its host. */
  report(id: number, report: HostReport): void {
    this.writeReport.runLater({ id, ...report })
  }

  /** Writes the given columns (administration, watchdog: not per message). */
  update(id: number, changes: HostChanges): void {
    this.sql.run(this.db.updateTable('host').set(changes).where('id', '=', id))
  }

  /** Active hosts whose heartbeat deadline has passed, oldest first. */
  silentSince(nowMs: number): HostRow[] {
    return this.dueForSilence.all({ nowMs })
  }

  /** The poll cycles and skews of the hosts the watchdog watches (active, heartbeat alive), each once. */
  watchedCycles(): Pick<HostRow, 'poll' | 'skew'>[] {
    return this.cyclesWatched.all({})
  }

  /** Gives every watched host of this poll cycle and skew the deadline: one statement for all of them. */
  setWatchedDeadline(poll: number, skew: number | null, deadlineMs: number | null): void {
    this.writeWatchedDeadline.run({ poll, skew, deadlineMs })
  }

  addEvents(id: number, count: number): void {
    this.bumpEvents.runLater({ id, count })
  }
}
