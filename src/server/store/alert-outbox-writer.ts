// Writes alert_outbox rows (issue 13): of kind alert and recovery inside the transaction of the event
// they tell of (the event and its notifications are stored together or not at all), and those of
// failures already active when a rule came to see them (issue 28). The delivery job reads, groups and
// sends them, and writes the reminders of what it sent.
import type { AlertItem } from '../../shared/api/alerts'
import type { AlertOutboxTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

/** One row: where the event goes, by which rule. */
export interface OutboxTarget {
  channelId: number
  ruleId: number
  kind: AlertOutboxTable['kind']
  /** Unix seconds: created + the rule's group wait */
  dueAt: number
}

export class AlertOutboxWriter {
  private readonly insertRow

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.insertRow = sql.prepare((p: OutboxTarget & { eventId: number; item: string; createdAt: number }) =>
      db.insertInto('alert_outbox').values({
        channel_id: p.channelId,
        rule_id: p.ruleId,
        event_id: p.eventId,
        kind: p.kind,
        item: p.item,
        created_at: p.createdAt,
        due_at: p.dueAt,
        notification_id: null
      })
    )
  }

  /** Call inside the transaction of event `eventId`: one row per target, each with the same frozen item. `createdAt`: unix seconds. */
  add(eventId: number, item: AlertItem, createdAt: number, targets: readonly OutboxTarget[]): void {
    const json = JSON.stringify(item)
    for (const t of targets) this.insertRow.run({ ...t, eventId, item: json, createdAt })
  }
}
