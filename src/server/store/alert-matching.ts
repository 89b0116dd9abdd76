// What alert matching reads (issue 13): the configuration's generation (bumped by triggers on every
// write to it, migration 009), the rule set to compile when that changed, and the little an event's
// match needs about its host and service. Per-event reads are single indexed rows, and run only for
// events some rule matches.
import { sql as rawSql, type CompiledQuery } from 'kysely'
import { EventClassId, EventState, Heartbeat } from '../../shared/codes'
import type { Mute, RuleRows, Silence } from '../domain/alert-rules'
import { ALERT_CONFIG_GENERATION_KEY } from './migrations/009-alert-config-generation'
import type { EventTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export interface AlertConfigRows {
  rules: RuleRows[]
  /** Host ids by host group id, for the rules' groups */
  groupMembers: Map<number, number[]>
  /**
   * Mutes by host id, ended ones too: a mute is compared with the event's agent time, and an event replayed
   * from an agent's queue may come from a time the mute covered.
   */
  mutes: Map<number, Mute[]>
}

/** An active failure from a time its host was silent, that no outbox row tells of. */
export type SilencedFailure = { event_id: number } & Pick<
  EventTable,
  'host_id' | 'service_name_id' | 'service_name' | 'service_type' | 'class' | 'state' | 'action' | 'message' | 'collected_usec' | 'date'
>

/** A failure active now (its service's newest event of its class failed), of a host not ignored. */
export type ActiveFailure = SilencedFailure & { hostname: string; heartbeat: number }

/** At most this many active failures are read at once: the bound of one rule's preview or reminder pass. */
export const MAX_ACTIVE_FAILURES = 50_000

export class AlertMatchingRepository {
  private readonly readGeneration
  private readonly readHost
  private readonly readServiceId
  private readonly readSilence

  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {
    this.readGeneration = sql.prepare((_: Record<string, never>) =>
      db.selectFrom('setting').select('value').where('key', '=', ALERT_CONFIG_GENERATION_KEY)
    )
    this.readHost = sql.prepare((p: { id: number }) => db.selectFrom('host').select(['hostname', 'status']).where('id', '=', p.id))
    this.readServiceId = sql.prepare((p: { hostId: number; name: string }) =>
      db.selectFrom('service').select('id').where('host_id', '=', p.hostId).where('name', '=', p.name)
    )
    this.readSilence = sql.prepare((p: { hostId: number; sec: number }) =>
      db
        .selectFrom('state_interval')
        .select(['start', 'end'])
        .where('host_id', '=', p.hostId)
        .where('service_name_id', 'is', null)
        .where('start', '<=', p.sec)
        .orderBy('start', 'desc')
        .limit(1)
    )
  }

  /** Changes whenever anything matching reads from the configuration changed, on any connection. */
  generation(): string {
    return this.readGeneration.get({})?.value ?? ''
  }

  /** The whole configuration, to compile (domain/alert-rules compileRules). */
  configRows(): AlertConfigRows {
    const { db, sql } = this
    const enabledChannels = new Set(sql.all(db.selectFrom('alert_channel').select('id').where('enabled', '=', 1)).map((c) => c.id))
    const channels = groupBy(sql.all(db.selectFrom('alert_rule_channel').select(['rule_id as k', 'channel_id as v'])))
    const hosts = groupBy(sql.all(db.selectFrom('alert_rule_host').select(['rule_id as k', 'host_id as v'])))
    const groups = groupBy(sql.all(db.selectFrom('alert_rule_group').select(['rule_id as k', 'group_id as v'])))
    const types = groupBy(sql.all(db.selectFrom('alert_rule_service_type').select(['rule_id as k', 'service_type as v'])))
    const rules = sql.all(db.selectFrom('alert_rule').selectAll().orderBy('id')).map((r): RuleRows => ({
      id: r.id,
      enabled: r.enabled === 1,
      servicePattern: r.service_pattern,
      states: r.states,
      eventTypes: r.event_types,
      heartbeat: r.heartbeat === 1,
      recovery: r.recovery === 1,
      groupWaitSec: r.group_wait_sec,
      reminderMin: r.reminder_min,
      createdAt: r.created_at,
      hostIds: hosts.get(r.id) ?? [],
      groupIds: groups.get(r.id) ?? [],
      serviceTypes: types.get(r.id) ?? [],
      channelIds: (channels.get(r.id) ?? []).filter((c) => enabledChannels.has(c))
    }))
    const groupMembers = groupBy(sql.all(db.selectFrom('host_group_member').select(['group_id as k', 'host_id as v'])))
    const mutes = groupBy(
      sql
        .all(db.selectFrom('alert_mute').select(['host_id', 'service_name_id', 'until']))
        .map((m) => ({ k: m.host_id, v: { serviceNameId: m.service_name_id, until: m.until } }))
    )
    return { rules, groupMembers, mutes }
  }

  host(id: number): { hostname: string; status: number } | undefined {
    return this.readHost.get({ id })
  }

  /** The service's id as status/hosts/get gives it; undefined when the host has no such service (yet). */
  serviceId(hostId: number, name: string): number | undefined {
    return this.readServiceId.get({ hostId, name })?.id
  }

  /**
   * Failures still active whose agent time lies in a silence of their host (its heartbeat dead) that ended
   * between `endedFrom` and `endedTo` (unix seconds), of hosts reporting and not ignored, that no outbox
   * row tells of: inhibited while the host was silent (or matched by no rule). From the few active events
   * (a partial index) to their host's silences and outbox rows, each by an index.
   */
  silencedFailures(endedFrom: number, endedTo: number): SilencedFailure[] {
    const query = rawSql<SilencedFailure>`
      SELECT e.id AS event_id, e.host_id, e.service_name_id, e.service_name, e.service_type, e.class, e.state, e.action,
        e.message, e.collected_usec, e.date
      FROM event e
      JOIN host h ON h.id = e.host_id AND h.status <> 2 AND h.heartbeat = ${Heartbeat.Ok}
      WHERE e.active = 1 AND e.class <> ${EventClassId.Heartbeat}
        AND EXISTS (SELECT 1 FROM state_interval s WHERE s.host_id = e.host_id AND s.service_name_id IS NULL
          AND s.start <= e.date AND s."end" > e.date AND s."end" BETWEEN ${endedFrom} AND ${endedTo})
        AND NOT EXISTS (SELECT 1 FROM alert_outbox o WHERE o.event_id = e.id)
      ORDER BY e.id`
    return this.sql.all({ compile: (): CompiledQuery<SilencedFailure> => query.compile(this.db) })
  }

  /** The failures active now on hosts not ignored, oldest first (from the partial index of active events). */
  activeFailures(): ActiveFailure[] {
    const query = rawSql<ActiveFailure>`
      SELECT e.id AS event_id, e.host_id, e.service_name_id, e.service_name, e.service_type, e.class, e.state, e.action,
        e.message, e.collected_usec, e.date, h.hostname, h.heartbeat
      FROM event e
      JOIN host h ON h.id = e.host_id AND h.status <> 2
      WHERE e.active = 1 AND e.state = ${EventState.Failed}
      ORDER BY e.id
      LIMIT ${MAX_ACTIVE_FAILURES}`
    return this.sql.all({ compile: (): CompiledQuery<ActiveFailure> => query.compile(this.db) })
  }

  /** The rules whose outbox rows tell of each active failure, as "eventId:ruleId" keys. */
  toldActiveFailures(): Set<string> {
    const query = rawSql<{ event_id: number; rule_id: number }>`
      SELECT DISTINCT o.event_id, o.rule_id
      FROM event e
      ${this.sql.dialect.orderedJoin} alert_outbox o ON o.event_id = e.id
      WHERE e.active = 1 AND e.state = ${EventState.Failed} AND o.rule_id IS NOT NULL`
    const rows = this.sql.all({ compile: (): CompiledQuery<{ event_id: number; rule_id: number }> => query.compile(this.db) })
    return new Set(rows.map((r) => toldKey(r.event_id, r.rule_id)))
  }

  /** The host's newest silence (its heartbeat dead) that began at or before `sec`. */
  silenceAt(hostId: number, sec: number): Silence | undefined {
    return this.readSilence.get({ hostId, sec })
  }
}

/** The key of toldActiveFailures. */
export function toldKey(eventId: number, ruleId: number): string {
  return `${eventId}:${ruleId}`
}

/** Values by key, in row order. */
function groupBy<K, V>(rows: readonly { k: K; v: V }[]): Map<K, V[]> {
  const m = new Map<K, V[]>()
  for (const { k, v } of rows) {
    const list = m.get(k)
    if (list) list.push(v)
    else m.set(k, [v])
  }
  return m
}
