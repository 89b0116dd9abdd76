// Alert channels, rules and mutes written with plain SQL (the admin API of issue 13 is built
// separately), and the outbox as the delivery job will read it.
import type { PlainSql } from '../../src/server/store/sql'
import type { AlertItem } from '../../src/shared/api/alerts'

export interface RuleSpec {
  name?: string
  enabled?: boolean
  channelIds: number[]
  hostIds?: number[]
  groupIds?: number[]
  servicePattern?: string
  serviceTypes?: number[]
  /** 1 failed, 2 changed, 4 succeeded */
  states?: number
  eventTypes?: number
  heartbeat?: boolean
  groupWaitSec?: number
  reminderMin?: number
  recovery?: boolean
}

let names = 0

/** A webhook channel to nowhere unless told otherwise; `settings` as stored (secrets sealed by the caller). */
export function addChannel(db: PlainSql, opts: { name?: string; enabled?: boolean; type?: string; settings?: object } = {}): number {
  return Number(
    (
      db
        .prepare(`INSERT INTO alert_channel (name, type, enabled, settings, created_at) VALUES (?, ?, ?, ?, 0) RETURNING id`)
        .get(
          opts.name ?? `channel ${++names}`,
          opts.type ?? 'webhook',
          opts.enabled === false ? 0 : 1,
          JSON.stringify(opts.settings ?? { url: 'http://127.0.0.1:9/' })
        ) as { id: number }
    ).id
  )
}

export function addRule(db: PlainSql, r: RuleSpec): number {
  const id = Number(
    (
      db
        .prepare(
          `INSERT INTO alert_rule (name, enabled, service_pattern, event_types, states, heartbeat, group_wait_sec,
    reminder_min, recovery, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`
        )
        .get(
          r.name ?? `rule ${++names}`,
          r.enabled === false ? 0 : 1,
          r.servicePattern ?? '',
          r.eventTypes ?? 0,
          r.states ?? 7,
          r.heartbeat === false ? 0 : 1,
          r.groupWaitSec ?? 30,
          r.reminderMin ?? 0,
          r.recovery === false ? 0 : 1
        ) as { id: number }
    ).id
  )
  for (const c of r.channelIds) db.prepare('INSERT INTO alert_rule_channel (rule_id, channel_id) VALUES (?, ?)').run(id, c)
  for (const h of r.hostIds ?? []) db.prepare('INSERT INTO alert_rule_host (rule_id, host_id) VALUES (?, ?)').run(id, h)
  for (const g of r.groupIds ?? []) db.prepare('INSERT INTO alert_rule_group (rule_id, group_id) VALUES (?, ?)').run(id, g)
  for (const t of r.serviceTypes ?? []) db.prepare('INSERT INTO alert_rule_service_type (rule_id, service_type) VALUES (?, ?)').run(id, t)
  return id
}

/** Mutes the host, or its service named `service`, until `until` (unix seconds). */
export function addMute(db: PlainSql, hostId: number, until: number, service?: string): number {
  const nameId = service === undefined ? null : (db.prepare('SELECT id FROM service_name WHERE name = ?').get(service) as { id: number }).id
  return Number(
    (
      db
        .prepare(
          `INSERT INTO alert_mute (host_id, service_name_id, until, reason, created_by, created_at) VALUES (?, ?, ?, 'test', 'admin', 0) RETURNING id`
        )
        .get(hostId, nameId, until) as { id: number }
    ).id
  )
}

export interface OutboxRow {
  id: number
  channel_id: number
  rule_id: number
  event_id: number
  kind: string
  item: AlertItem
  created_at: number
  due_at: number
}

export function outboxRows(db: PlainSql): OutboxRow[] {
  return (
    db.prepare('SELECT id, channel_id, rule_id, event_id, kind, item, created_at, due_at FROM alert_outbox ORDER BY id').all() as (Omit<
      OutboxRow,
      'item'
    > & { item: string })[]
  ).map((r) => ({ ...r, item: JSON.parse(r.item) as AlertItem }))
}
