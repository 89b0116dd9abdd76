// Writes alert_outbox rows of kind alert and recovery (issue 13), inside the transaction of the event
// they tell of: the event and its notifications are stored together or not at all. The delivery job
// reads, groups and sends them, and writes the reminders.
import type { AlertItem } from '../../shared/api/alerts'
import type { AlertKind } from '../domain/alert-rules'
import type { QueryBuilder, SqlRunner } from './sql'

export interface OutboxEntry {
  channelId: number
  ruleId: number
  eventId: number
  kind: AlertKind
  item: AlertItem
  /** Unix seconds, server clock */
  createdAt: number
  /** Unix seconds: createdAt + the rule's group wait */
  dueAt: number
}

export class AlertOutboxWriter {
  private readonly insertRow

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.insertRow = sql.prepare((p: { channelId: number; ruleId: number; eventId: number; kind: AlertKind; item: string; createdAt: number; dueAt: number }) =>
      db.insertInto('alert_outbox').values({
        channel_id: p.channelId, rule_id: p.ruleId, event_id: p.eventId, kind: p.kind, item: p.item,
        created_at: p.createdAt, due_at: p.dueAt, notification_id: null
      }))
  }

  /** Call inside the event's transaction. */
  add(e: OutboxEntry): void {
    this.insertRow.run({ ...e, item: JSON.stringify(e.item) })
  }
}
