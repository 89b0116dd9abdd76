// Hosts, events and outbox rows written straight into a database, as the collector and its matching
// write them, so that the delivery is tested alone (channels and rules: ./alert-config.ts).
import type { PlainSql } from '../../src/server/store/sql'
import type { AlertItem } from '../../src/shared/api/alerts'

export function addHost(db: PlainSql, hostname: string): number {
  return Number(
    (
      db.prepare('INSERT INTO host (agent_id, hostname, created_at) VALUES (?, ?, 0) RETURNING id').get(`agent-${hostname}`, hostname) as {
        id: number
      }
    ).id
  )
}

/** A failed event of `service` on the host (class Nonexist unless told), active until `recover`. */
export function addEvent(db: PlainSql, hostId: number, service: string, date: number, eventClass = 512): number {
  db.prepare('INSERT INTO service_name (name) VALUES (?) ON CONFLICT DO NOTHING').run(service)
  const nameId = (db.prepare('SELECT id FROM service_name WHERE name = ?').get(service) as { id: number }).id
  return Number(
    (
      db
        .prepare(
          `INSERT INTO event (host_id, service_name_id, service_name, service_type, class, state, action, message,
    collected_usec, date, active) VALUES (?, ?, ?, 3, ?, 1, 1, 'process is not running', ?, ?, 1) RETURNING id`
        )
        .get(hostId, nameId, service, eventClass, date * 1e6, date) as { id: number }
    ).id
  )
}

export function recover(db: PlainSql, eventId: number): void {
  db.prepare('UPDATE event SET active = 0 WHERE id = ?').run(eventId)
}

export function item(
  hostid: number,
  host: string,
  service: string,
  eventId: number | null,
  state: AlertItem['state'] = 'failed',
  date = 0
): AlertItem {
  return {
    hostid,
    host,
    serviceid: 1,
    service,
    servicetype: 3,
    event: 'Nonexist',
    state,
    message: 'process is not running',
    date,
    link: eventId === null ? `#/hosts/${hostid}` : `#/events/${eventId}`
  }
}

/** One outbox row as the matching writes it: due after the rule's group wait. */
export function addOutbox(
  db: PlainSql,
  row: {
    channelId: number
    ruleId?: number | null
    eventId?: number | null
    kind?: 'alert' | 'recovery' | 'reminder'
    item: AlertItem
    createdAt: number
    groupWaitSec?: number
  }
): number {
  return Number(
    (
      db
        .prepare(
          `INSERT INTO alert_outbox (channel_id, rule_id, event_id, kind, item, created_at, due_at)
    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`
        )
        .get(
          row.channelId,
          row.ruleId ?? null,
          row.eventId ?? null,
          row.kind ?? 'alert',
          JSON.stringify(row.item),
          row.createdAt,
          row.createdAt + (row.groupWaitSec ?? 30)
        ) as { id: number }
    ).id
  )
}

export interface NotificationRow {
  id: number
  uid: string
  channel_id: number
  status: string
  attempts: number
  next_attempt_at: number | null
  last_error: string | null
  delivered_at: number | null
  summary: string
  link: string
  alert_count: number
  created_at: number
  log: string | null
}

export function notifications(db: PlainSql): NotificationRow[] {
  return db.prepare('SELECT * FROM alert_notification ORDER BY id').all() as NotificationRow[]
}
