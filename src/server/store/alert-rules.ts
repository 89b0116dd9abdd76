// Alert rules (migration 006): which events go to which channels. A rule and its four lists (channels,
// hosts, host groups, service types) are one aggregate, written in one transaction.
import type { Selectable } from 'kysely'
import type { AlertRuleTable, Schema } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

/** What create and update write. Empty hosts and groups: every host; empty service types: every type. */
export interface AlertRuleValues {
  name: string
  enabled: boolean
  /** A glob on the service name; '' matches every service */
  servicePattern: string
  /** Event type bits (the API's eventtype bitmap); 0 matches every type */
  eventTypes: number
  /** Bits: 1 failed, 2 changed, 4 succeeded */
  states: number
  heartbeat: boolean
  groupWaitSec: number
  reminderMin: number
  recovery: boolean
  channelIds: number[]
  hostIds: number[]
  groupIds: number[]
  serviceTypes: number[]
}

export interface AlertRule extends AlertRuleValues {
  id: number
  /** Unix seconds */
  createdAt: number
}

type Lists = Pick<AlertRuleValues, 'channelIds' | 'hostIds' | 'groupIds' | 'serviceTypes'>

export class AlertRuleRepository {
  constructor(
    private readonly q: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  list(): AlertRule[] {
    const rows = this.sql.all(this.q.selectFrom('alert_rule').selectAll().orderBy('name'))
    const lists = new Map(rows.map((r) => [r.id, emptyLists()]))
    for (const c of this.sql.all(this.q.selectFrom('alert_rule_channel').selectAll().orderBy('channel_id')))
      lists.get(c.rule_id)?.channelIds.push(c.channel_id)
    for (const h of this.sql.all(this.q.selectFrom('alert_rule_host').selectAll().orderBy('host_id')))
      lists.get(h.rule_id)?.hostIds.push(h.host_id)
    for (const g of this.sql.all(this.q.selectFrom('alert_rule_group').selectAll().orderBy('group_id')))
      lists.get(g.rule_id)?.groupIds.push(g.group_id)
    for (const t of this.sql.all(this.q.selectFrom('alert_rule_service_type').selectAll().orderBy('service_type')))
      lists.get(t.rule_id)?.serviceTypes.push(t.service_type)
    return rows.map((r) => ruleOf(r, lists.get(r.id)!))
  }

  find(id: number): AlertRule | undefined {
    const row = this.sql.first(this.q.selectFrom('alert_rule').selectAll().where('id', '=', id))
    if (!row) return undefined
    return ruleOf(row, {
      channelIds: this.sql
        .all(this.q.selectFrom('alert_rule_channel').select('channel_id as v').where('rule_id', '=', id).orderBy('v'))
        .map((r) => r.v),
      hostIds: this.sql
        .all(this.q.selectFrom('alert_rule_host').select('host_id as v').where('rule_id', '=', id).orderBy('v'))
        .map((r) => r.v),
      groupIds: this.sql
        .all(this.q.selectFrom('alert_rule_group').select('group_id as v').where('rule_id', '=', id).orderBy('v'))
        .map((r) => r.v),
      serviceTypes: this.sql
        .all(this.q.selectFrom('alert_rule_service_type').select('service_type as v').where('rule_id', '=', id).orderBy('v'))
        .map((r) => r.v)
    })
  }

  idOfName(name: string): number | undefined {
    return this.sql.first(this.q.selectFrom('alert_rule').select('id').where('name', '=', name))?.id
  }

  create(rule: AlertRuleValues, now: number): number {
    return this.sql.transaction(() => {
      const id = this.sql.first(
        this.q
          .insertInto('alert_rule')
          .values({ ...columns(rule), created_at: now })
          .returning('id')
      )!.id
      this.insertLists(id, rule)
      return id
    })
  }

  update(id: number, rule: AlertRuleValues): void {
    this.sql.transaction(() => {
      this.sql.run(this.q.updateTable('alert_rule').set(columns(rule)).where('id', '=', id))
      this.sql.run(this.q.deleteFrom('alert_rule_channel').where('rule_id', '=', id))
      this.sql.run(this.q.deleteFrom('alert_rule_host').where('rule_id', '=', id))
      this.sql.run(this.q.deleteFrom('alert_rule_group').where('rule_id', '=', id))
      this.sql.run(this.q.deleteFrom('alert_rule_service_type').where('rule_id', '=', id))
      this.insertLists(id, rule)
    })
  }

  /** False when there is no such rule. Its lists go with it (schema cascade). */
  delete(id: number): boolean {
    return this.sql.run(this.q.deleteFrom('alert_rule').where('id', '=', id)).changes === 1
  }

  /** The ids among `ids` that name no host group. */
  unknownGroups(ids: readonly number[]): number[] {
    if (ids.length === 0) return []
    const known = new Set(
      this.sql.all(this.q.selectFrom('host_group').select('id').where('id', 'in', this.sql.dialect.idList(ids))).map((g) => g.id)
    )
    return ids.filter((id) => !known.has(id))
  }

  private insertLists(id: number, lists: Lists): void {
    const insert = <T extends 'alert_rule_channel' | 'alert_rule_host' | 'alert_rule_group' | 'alert_rule_service_type'>(
      table: T,
      rows: Schema[T][]
    ) => {
      if (rows.length > 0)
        this.sql.run(
          this.q
            .insertInto(table)
            .values(rows as never)
            .onConflict((oc) => oc.doNothing())
        )
    }
    insert(
      'alert_rule_channel',
      lists.channelIds.map((channel_id) => ({ rule_id: id, channel_id }))
    )
    insert(
      'alert_rule_host',
      lists.hostIds.map((host_id) => ({ rule_id: id, host_id }))
    )
    insert(
      'alert_rule_group',
      lists.groupIds.map((group_id) => ({ rule_id: id, group_id }))
    )
    insert(
      'alert_rule_service_type',
      lists.serviceTypes.map((service_type) => ({ rule_id: id, service_type }))
    )
  }
}

function emptyLists(): Lists {
  return { channelIds: [], hostIds: [], groupIds: [], serviceTypes: [] }
}

function columns(r: AlertRuleValues) {
  return {
    name: r.name,
    enabled: r.enabled ? 1 : 0,
    service_pattern: r.servicePattern,
    event_types: r.eventTypes,
    states: r.states,
    heartbeat: r.heartbeat ? 1 : 0,
    group_wait_sec: r.groupWaitSec,
    reminder_min: r.reminderMin,
    recovery: r.recovery ? 1 : 0
  }
}

function ruleOf(row: Selectable<AlertRuleTable>, lists: Lists): AlertRule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    servicePattern: row.service_pattern,
    eventTypes: row.event_types,
    states: row.states,
    heartbeat: row.heartbeat === 1,
    groupWaitSec: row.group_wait_sec,
    reminderMin: row.reminder_min,
    recovery: row.recovery === 1,
    ...lists,
    createdAt: row.created_at
  }
}
