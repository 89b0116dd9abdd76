// The delivery side of the alert outbox (migration 007): due rows grouped into notifications, the
// notifications' attempts and results, reminders, pruning, and the delivery log behind
// admin/alerts/deliveries/list. Times are unix seconds. Every call is a few indexed statements: the job
// runs on the main thread and must never hold it for long.
import { sql, type CompiledQuery } from 'kysely'
import { EventClassId, EventState, Heartbeat } from '../../shared/codes'
import type { AlertNotificationTable, AlertOutboxTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type NotificationStatus = AlertNotificationTable['status']
export type OutboxKind = AlertOutboxTable['kind']

export interface PendingOutboxRow {
  id: number
  event_id: number | null
  kind: OutboxKind
  item: string
}

/** A notification due for an attempt, with what sending it needs of its channel. */
export interface DueNotification {
  id: number
  uid: string
  created_at: number
  attempts: number
  channel_id: number
  channel_type: string
  channel_enabled: number
  settings: string
  subject_template: string | null
  body_template: string | null
}

/** An alerted failure still active whose rule reminds, with its last notification so far. */
export interface ReminderCandidate {
  event_id: number
  rule_id: number
  channel_id: number
  reminder_min: number
  last_at: number
  item: string
}

/** A failure active now (the "also failing" of a notification): an active failed event of its host. */
export interface CurrentFailure {
  event_id: number
  host_id: number
  hostname: string
  /** The service's id (status/hosts/get); null when the host no longer reports it */
  service_id: number | null
  service_name: string
  service_type: number
  class: number
  message: string
  date: number
}

export interface DeliveryFilter {
  channelId?: number
  ruleId?: number
  status?: NotificationStatus
  /** On created_at, unix seconds, inclusive */
  dateFrom?: number
  dateTo?: number
}

export interface DeliveryRow {
  id: number
  uid: string
  channel_id: number
  channel_name: string
  channel_type: string
  created_at: number
  status: NotificationStatus
  attempts: number
  next_attempt_at: number | null
  last_error: string | null
  delivered_at: number | null
  summary: string
  link: string
  alert_count: number
  log: string | null
}

export interface DeliveryOutboxRow {
  notification_id: number
  rule_id: number | null
  rule_name: string | null
  event_id: number | null
  kind: OutboxKind
}

export class AlertDeliveryRepository {
  constructor(
    private readonly db: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  /** Enabled channels whose oldest ungrouped row is due by `now`: their group wait is over. */
  dueChannels(now: number): number[] {
    return this.sql
      .all(
        this.db
          .selectFrom('alert_outbox as o')
          .innerJoin('alert_channel as c', 'c.id', 'o.channel_id')
          .select('o.channel_id')
          .where('o.notification_id', 'is', null)
          .where('c.enabled', '=', 1)
          .groupBy('o.channel_id')
          .having((eb) => eb.fn.min('o.due_at'), '<=', now)
      )
      .map((r) => r.channel_id)
  }

  /** The rows grouped into notification `id`, in order: what it tells (their items are frozen). */
  rowsOf(id: number): PendingOutboxRow[] {
    return this.sql.all(
      this.db.selectFrom('alert_outbox').select(['id', 'event_id', 'kind', 'item']).where('notification_id', '=', id).orderBy('id')
    )
  }

  /** A channel's ungrouped rows created by `now`, oldest first. */
  ungrouped(channelId: number, now: number, limit: number): PendingOutboxRow[] {
    return this.sql.all(
      this.db
        .selectFrom('alert_outbox')
        .select(['id', 'event_id', 'kind', 'item'])
        .where('channel_id', '=', channelId)
        .where('notification_id', 'is', null)
        .where('created_at', '<=', now)
        .orderBy('id')
        .limit(limit)
    )
  }

  /**
   * A notification to send now, made of `rowIds`; call inside a transaction. Throws (and the caller's
   * transaction or savepoint must roll back) when any of the rows is no longer ungrouped: they may
   * have been read before the transaction began.
   */
  createNotification(n: {
    uid: string
    channelId: number
    createdAt: number
    summary: string
    link: string
    alertCount: number
    rowIds: readonly number[]
  }): number {
    const { id } = this.sql.first(
      this.db
        .insertInto('alert_notification')
        .values({
          uid: n.uid,
          channel_id: n.channelId,
          created_at: n.createdAt,
          status: 'pending',
          next_attempt_at: n.createdAt,
          summary: n.summary,
          link: n.link,
          alert_count: n.alertCount
        })
        .returning('id')
    )!
    const { changes } = this.sql.run(
      this.db
        .updateTable('alert_outbox')
        .set({ notification_id: id })
        .where('id', 'in', this.sql.dialect.idList(n.rowIds))
        // Unary + keeps SQLite on the rows' ids: by the index it would visit every ungrouped row of every channel.
        .where(sql<number | null>`+notification_id`, 'is', null)
    )
    if (changes !== n.rowIds.length) throw new Error(`alert outbox rows of channel ${n.channelId} changed while being grouped`)
    return id
  }

  /** Per channel, its first pending notification whose attempt is due by `now`: channels are sent to one at a time each. */
  dueNotifications(now: number): DueNotification[] {
    return this.sql.all(
      this.db
        .selectFrom('alert_channel as c')
        // 'pending' as a literal, not a parameter: only then may SQLite use the partial index of pending rows.
        .innerJoin('alert_notification as n', (join) =>
          join.on('n.id', '=', (eb) =>
            eb
              .selectFrom('alert_notification as x')
              .select('x.id')
              .whereRef('x.channel_id', '=', 'c.id')
              .where('x.status', '=', sql.lit('pending'))
              .where('x.next_attempt_at', '<=', now)
              .orderBy('x.next_attempt_at')
              .orderBy('x.id')
              .limit(1)
          )
        )
        .select([
          'n.id',
          'n.uid',
          'n.created_at',
          'n.attempts',
          'n.channel_id',
          'c.type as channel_type',
          'c.enabled as channel_enabled',
          'c.settings',
          'c.subject_template',
          'c.body_template'
        ])
        .orderBy('n.next_attempt_at')
        .orderBy('n.id')
    )
  }

  /** The channel took it. Only a pending notification changes: a result never overwrites another. */
  delivered(id: number, now: number, log: string | null): void {
    this.sql.run(
      this.db
        .updateTable('alert_notification')
        .set((eb) => ({ status: 'delivered', attempts: eb('attempts', '+', 1), delivered_at: now, next_attempt_at: null, log }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
    )
  }

  /**
   * The rows of notification `id` whose host, or whose service, is muted at `now` (server time): muted
   * after they were queued, they are not sent (a mute applies at send time too).
   */
  mutedRowsOf(id: number, now: number): number[] {
    return this.sql
      .all(
        this.db
          .selectFrom('alert_outbox as o')
          .innerJoin('event as e', 'e.id', 'o.event_id')
          .select('o.id')
          .where('o.notification_id', '=', id)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('alert_mute as m')
                .select('m.id')
                .whereRef('m.host_id', '=', 'e.host_id')
                .where('m.until', '>', now)
                .where((w) => w.or([w('m.service_name_id', 'is', null), w('m.service_name_id', '=', w.ref('e.service_name_id'))]))
            )
          )
      )
      .map((r) => r.id)
  }

  /** Every alert of it muted since it was queued: not sent, and the log says why. */
  suppressed(id: number, log: string): void {
    this.sql.run(
      this.db
        .updateTable('alert_notification')
        .set({ status: 'suppressed', next_attempt_at: null, log })
        .where('id', '=', id)
        .where('status', '=', 'pending')
    )
  }

  /** Up to `limit` failures active now on these hosts, oldest first, from the partial index of active events. */
  currentFailures(hostIds: readonly number[], limit: number): CurrentFailure[] {
    if (hostIds.length === 0) return []
    return this.sql.all(
      this.db
        .selectFrom('event as e')
        .innerJoin('host as h', 'h.id', 'e.host_id')
        .leftJoin('service as s', (join) => join.onRef('s.host_id', '=', 'e.host_id').onRef('s.name', '=', 'e.service_name'))
        .select([
          'e.id as event_id',
          'e.host_id',
          'h.hostname',
          's.id as service_id',
          'e.service_name',
          'e.service_type',
          'e.class',
          'e.message',
          'e.date'
        ])
        .where('e.host_id', 'in', this.sql.dialect.idList(hostIds))
        .where('e.active', '=', 1)
        .where('e.state', '=', EventState.Failed)
        .orderBy('e.date')
        .orderBy('e.id')
        .limit(limit)
    )
  }

  /** An attempt failed: try again at `retryAt`, or (null) give up. */
  attemptFailed(id: number, error: string, log: string | null, retryAt: number | null): void {
    this.sql.run(
      this.db
        .updateTable('alert_notification')
        .set((eb) => ({
          status: retryAt === null ? 'failed' : 'pending',
          attempts: eb('attempts', '+', 1),
          next_attempt_at: retryAt,
          last_error: error,
          log
        }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
    )
  }

  /**
   * Active failures alerted through a rule that reminds, a channel it still routes to, everything sent so
   * far (no row of it waiting), the host not muted nor ignored, and not silent unless the failure is its
   * heartbeat (a dead host inhibits its services' alerts). `last_at` is when its last notification was
   * made; `item` the alert as first told.
   */
  reminderCandidates(now: number): ReminderCandidate[] {
    const query = sql<ReminderCandidate>`
      SELECT o.event_id, o.rule_id, o.channel_id, r.reminder_min,
        MAX(COALESCE(n.created_at, o.created_at)) AS last_at,
        (SELECT f.item FROM alert_outbox f WHERE f.event_id = o.event_id AND f.rule_id = o.rule_id
          AND f.channel_id = o.channel_id ORDER BY f.id LIMIT 1) AS item
      FROM event e
      -- CROSS JOIN keeps this order: from the few active events (a partial index) to their rows, never a
      -- scan of the whole outbox on every pass.
      ${this.sql.dialect.orderedJoin} alert_outbox o ON o.event_id = e.id AND o.kind IN ('alert', 'reminder')
      JOIN host h ON h.id = e.host_id AND h.status <> 2
        AND (h.heartbeat <> ${Heartbeat.Dead} OR e.class = ${EventClassId.Heartbeat})
      JOIN alert_rule r ON r.id = o.rule_id AND r.enabled = 1 AND r.reminder_min > 0
      JOIN alert_rule_channel rc ON rc.rule_id = o.rule_id AND rc.channel_id = o.channel_id
      JOIN alert_channel c ON c.id = o.channel_id AND c.enabled = 1
      LEFT JOIN alert_notification n ON n.id = o.notification_id
      WHERE e.active = 1
        AND NOT EXISTS (SELECT 1 FROM alert_mute m WHERE m.host_id = e.host_id AND m.until > ${now}
          AND (m.service_name_id IS NULL OR m.service_name_id = e.service_name_id))
      GROUP BY o.event_id, o.rule_id, o.channel_id, r.reminder_min
      HAVING SUM(CASE WHEN o.notification_id IS NULL THEN 1 ELSE 0 END) = 0`
    return this.sql.all({ compile: (): CompiledQuery<ReminderCandidate> => query.compile(this.db) })
  }

  /** Queues a reminder row, due at once (the rule's group wait was served by the first alert). */
  addReminder(c: ReminderCandidate, now: number): void {
    this.sql.run(
      this.db.insertInto('alert_outbox').values({
        channel_id: c.channel_id,
        rule_id: c.rule_id,
        event_id: c.event_id,
        kind: 'reminder',
        item: c.item,
        created_at: now,
        due_at: now
      })
    )
  }

  /**
   * Deletes up to `limit` finished notifications (their outbox rows cascade) and up to `limit` rows never
   * grouped (a disabled channel's) made before `before`; returns how many went.
   */
  prune(before: number, limit: number): number {
    const notifications = this.sql.run(
      this.db
        .deleteFrom('alert_notification')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('alert_notification')
            .select('id')
            .where('created_at', '<', before)
            .where('status', 'in', ['delivered', 'failed', 'suppressed'])
            .limit(limit)
        )
    ).changes
    const rows = this.sql.run(
      this.db
        .deleteFrom('alert_outbox')
        .where('id', 'in', (eb) =>
          eb.selectFrom('alert_outbox').select('id').where('notification_id', 'is', null).where('created_at', '<', before).limit(limit)
        )
    ).changes
    return notifications + rows
  }

  deliveryCount(filter: DeliveryFilter): number {
    return Number(this.sql.first(this.filtered(filter).select((eb) => eb.fn.countAll<number>().as('n')))!.n)
  }

  /** Newest first. */
  deliveries(filter: DeliveryFilter, startIndex: number, pageSize: number): DeliveryRow[] {
    return this.sql.all(
      this.filtered(filter)
        .innerJoin('alert_channel as c', 'c.id', 'n.channel_id')
        .select([
          'n.id',
          'n.uid',
          'n.channel_id',
          'c.name as channel_name',
          'c.type as channel_type',
          'n.created_at',
          'n.status',
          'n.attempts',
          'n.next_attempt_at',
          'n.last_error',
          'n.delivered_at',
          'n.summary',
          'n.link',
          'n.alert_count',
          'n.log'
        ])
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .offset(startIndex)
        .limit(pageSize)
    )
  }

  /** The rows (rule, event, kind) grouped into each of these notifications. */
  outboxOf(notificationIds: readonly number[]): DeliveryOutboxRow[] {
    return this.sql.all(
      this.db
        .selectFrom('alert_outbox as o')
        .leftJoin('alert_rule as r', 'r.id', 'o.rule_id')
        .select(['o.notification_id', 'o.rule_id', 'r.name as rule_name', 'o.event_id', 'o.kind'])
        .where('o.notification_id', 'in', this.sql.dialect.idList(notificationIds))
        .orderBy('o.id')
    ) as DeliveryOutboxRow[]
  }

  private filtered(f: DeliveryFilter) {
    let query = this.db.selectFrom('alert_notification as n')
    if (f.channelId !== undefined) query = query.where('n.channel_id', '=', f.channelId)
    if (f.status !== undefined) query = query.where('n.status', '=', f.status)
    if (f.dateFrom !== undefined) query = query.where('n.created_at', '>=', f.dateFrom)
    if (f.dateTo !== undefined) query = query.where('n.created_at', '<=', f.dateTo)
    if (f.ruleId !== undefined) {
      const ruleId = f.ruleId
      query = query.where((eb) =>
        eb.exists(
          eb.selectFrom('alert_outbox as ro').select('ro.id').whereRef('ro.notification_id', '=', 'n.id').where('ro.rule_id', '=', ruleId)
        )
      )
    }
    return query
  }
}
