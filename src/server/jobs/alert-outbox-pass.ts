// The alert outbox's statements (issue 13), apart from its sends (alert-delivery.ts): on SQLite they run
// on the HTTP thread, on PostgreSQL on the jobs' thread (jobs-worker.ts), where a statement waiting on
// the database holds no request (issue 29). Each pass, in a few short statements: reminders due are
// queued (and failures inhibited during a host's silence that still fail once it is back are told),
// each channel whose group wait is over gets its ungrouped rows made into one notification (a stable uid
// stored with it, so a retry or a restart sends the same id), and the next due notification of every
// channel not sending is handed over with what its send needs. A send's result is recorded here too.
// The collector's ingest thread holds SQLite's write lock most of the time under load: the notifications
// are built outside the write transaction, written together in one short one, and when the lock is
// taken the pass does not sleep in SQLite's busy handler (this thread serves HTTP) but asks to run again
// 20 ms later (npm run bench -- alerting measures this).
import { randomUUID } from 'node:crypto'
import type { AlertItem, AlertNotification } from '../../shared/api/alerts'
import { EventClassId } from '../../shared/codes'
import type { SendResult } from '../alerting/channel'
import type { FailingNow } from '../alerting/templates'
import { afterFailure, buildNotification, MAX_ALERTS_PER_NOTIFICATION, reminderDueAt, type OutboxEntry } from '../domain/alert-delivery'
import { eventName } from '../domain/alert-words'
import { AlertEnqueuer } from '../events/alert-enqueuer'
import { FailuresInScope } from '../events/failures-in-scope'
import type { AlertDeliveryRepository, DueNotification, PendingOutboxRow } from '../store/alert-deliveries'
import type { Store } from '../store/store'

/** Pruning runs once a minute, this many rows at a time, so that it never holds the thread. */
const PRUNE_EVERY_SEC = 60
const PRUNE_STEP = 500
/**
 * Reminders are minutes apart: the pass looks for due ones when the earliest it knows of is due, and at
 * least this often (an alert sent since, a rule changed), not every second.
 */
const REMINDERS_AT_LEAST_EVERY_SEC = 60
/**
 * A host back from a silence replays its queued events first: its failures of the silent time that
 * still fail this long after it came back are told (at the reminders' pace), those that recovered not.
 */
const ANNOUNCE_AFTER_RETURN_SEC = 60
/** Silences that ended longer ago than this are not looked at again. */
const ANNOUNCE_WITHIN_SEC = 86_400
/** "Also failing now": the failures of at most this many of a notification's hosts, this many listed at most. */
const MAX_FAILING_HOSTS = 50
const MAX_FAILING = 200
/** What the delivery log keeps of a channel's words. */
export const MAX_ERROR_CHARS = 2_000
const MAX_LOG_CHARS = 16_000
/** A pass whose grouping found the write lock taken is tried again after this long… */
const BUSY_RETRY_MS = 20
/** …this many times; then it waits for the lock like any other write. */
const MAX_BUSY_PASSES = 25
export const DEFAULT_KEEP_SEC = 30 * 86_400

type NewNotification = Parameters<AlertDeliveryRepository['createNotification']>[0]
type OutboxRow = Omit<PendingOutboxRow, 'id'>

/** A user a channel may address (the email channel's `userid` recipients). */
export interface SendUser {
  id: number
  email: string
  timezone: string
}

/** A due notification handed over for its send, with all the send reads of the store. */
export interface PreparedSend {
  notification: DueNotification
  rows: OutboxRow[]
  /** Said in the delivery log besides the channel's words (alerts muted since queued). */
  note?: string
  /** The failures of its hosts it does not tell of ("also failing now"). */
  failing: FailingNow[]
  users: SendUser[]
}

export interface OutboxPassResult {
  /** The sends to start, one per channel at most. */
  sends: PreparedSend[]
  /** Run again this soon: the grouping found the write lock taken. */
  retryMs?: number
  /** One channel's grouping failed: told after the others went on. */
  failure?: unknown
}

/** What recording a send's result did. */
export type RecordOutcome = 'delivered' | 'retrying' | 'given-up'

/** What a send's result is recorded against. */
export type SentNotification = Pick<DueNotification, 'id' | 'uid' | 'channel_id' | 'attempts' | 'created_at'>

export class AlertOutboxPass {
  private readonly repo: AlertDeliveryRepository
  private readonly enqueuer: AlertEnqueuer
  private readonly failuresInScope: FailuresInScope
  /** The pass's clock (ms): set by each call, for the enqueuer's and the scope's reads. */
  private nowMs = 0
  private lastPruneSec = -Infinity
  /** When the pass looks for due reminders again, and when it last did */
  private nextRemindersSec = -Infinity
  private lastRemindersSec = -Infinity
  /** Passes in a row whose grouping found the write lock taken */
  private busyPasses = 0
  /** Notifications grouped but not written yet: the write lock was taken (their rows are checked when written). */
  private unwritten: NewNotification[] = []

  constructor(
    private readonly store: Store,
    private readonly consoleUrl: string,
    private readonly keepSec = DEFAULT_KEEP_SEC
  ) {
    this.repo = store.alertDeliveries
    this.enqueuer = new AlertEnqueuer(store, () => this.nowMs)
    this.failuresInScope = new FailuresInScope(store, () => this.nowMs)
  }

  /** One pass at `nowMs`; `sending`: the channels with a send under way, which get no other yet. */
  run(nowMs: number, sending: readonly number[]): OutboxPassResult {
    this.nowMs = nowMs
    const now = Math.floor(nowMs / 1000)
    // One channel's grouping failing must not hold back the others: its error is told after the pass.
    let failure: unknown
    if (this.unwritten.length === 0) {
      // A clock moved back (tests move the job's) looks again at once.
      if (now >= this.nextRemindersSec || now < this.lastRemindersSec) {
        this.nextRemindersSec = this.queueReminders(now)
        this.enqueuer.announceSilenced(now - ANNOUNCE_WITHIN_SEC, now - ANNOUNCE_AFTER_RETURN_SEC)
        this.lastRemindersSec = now
      }
      for (const channelId of this.repo.dueChannels(now)) {
        try {
          const group = this.group(channelId, now)
          if (group) this.unwritten.push(group)
        } catch (err) {
          failure ??= err
        }
      }
    }
    if (this.unwritten.length > 0) {
      const groups = this.unwritten
      // Written in one transaction, each notification in a savepoint of its own (a failure undoes only
      // its own). The ingest thread commits all the time: rather than sleep in SQLite's busy handler,
      // the write is tried again shortly, waiting only after several refusals in a row.
      const write = () =>
        this.store.transaction(() => {
          for (const group of groups) {
            try {
              this.store.transaction(() => this.repo.createNotification(group))
            } catch (err) {
              failure ??= err
            }
          }
        })
      try {
        if (this.busyPasses < MAX_BUSY_PASSES && !this.store.sql.withoutWaiting(write)) {
          this.busyPasses++
          return { sends: [], retryMs: BUSY_RETRY_MS, failure }
        }
        if (this.busyPasses >= MAX_BUSY_PASSES) write()
        this.busyPasses = 0
        this.unwritten = []
      } catch (err) {
        // Not written: the rows stay ungrouped and are grouped afresh by the next pass.
        if (failure === undefined) this.unwritten = []
        throw err
      }
    }
    const sends = this.due(now, sending)
    // Pruning can wait: when the write lock is taken, it is tried again next pass.
    if (
      now - this.lastPruneSec >= PRUNE_EVERY_SEC &&
      this.store.sql.withoutWaiting(() => this.repo.prune(now - this.keepSec, PRUNE_STEP))
    ) {
      this.lastPruneSec = now
    }
    return { sends, failure }
  }

  /** Records a send's result at `nowMs`: delivered, or failed and retried with backoff until given up. */
  record(n: SentNotification, result: SendResult, nowMs: number): RecordOutcome {
    const now = Math.floor(nowMs / 1000)
    const log = result.log === undefined ? null : result.log.slice(0, MAX_LOG_CHARS)
    if (result.ok) {
      this.repo.delivered(n.id, now, log)
      return 'delivered'
    }
    const next = afterFailure(n.attempts + 1, n.created_at, now, result.retryAfterSec)
    this.repo.attemptFailed(n.id, result.error.slice(0, MAX_ERROR_CHARS), log, 'retryAt' in next ? next.retryAt : null)
    return 'retryAt' in next ? 'retrying' : 'given-up'
  }

  /** Queues the reminders due by `now`; returns when the next one known is due (or the latest time to look again). */
  private queueReminders(now: number): number {
    let next = now + REMINDERS_AT_LEAST_EVERY_SEC
    const due = this.repo.reminderCandidates(now).filter((c) => {
      const at = reminderDueAt(c.last_at, c.reminder_min)
      if (at > now) next = Math.min(next, at)
      return at <= now
    })
    if (due.length > 0) this.store.transaction(() => due.forEach((c) => this.repo.addReminder(c, now)))
    // Failures active before their rule saw them (or before their host entered its scope) are reminded too.
    this.failuresInScope.remindUntold()
    return next
  }

  /**
   * The channel's ungrouped rows as one notification to write, read and built outside the write
   * transaction so that it holds the write lock briefly; createNotification checks that they are
   * still ungrouped when written.
   */
  private group(channelId: number, now: number): NewNotification | undefined {
    const rows = this.repo.ungrouped(channelId, now, MAX_ALERTS_PER_NOTIFICATION)
    if (rows.length === 0) return undefined
    const uid = randomUUID()
    const { summary, link, alerts } = notificationOf(uid, rows, this.consoleUrl)
    return { uid, channelId, createdAt: now, summary, link, alertCount: alerts.length, rowIds: rows.map((r) => r.id) }
  }

  /** The next due notification of each channel not sending, with what its send needs. */
  private due(now: number, sending: readonly number[]): PreparedSend[] {
    const busy = new Set(sending)
    const sends: PreparedSend[] = []
    for (const n of this.repo.dueNotifications(now)) {
      if (busy.has(n.channel_id)) continue
      if (!n.channel_enabled) {
        // Disabled after the alert was grouped: nothing is sent, and the log says why.
        this.repo.attemptFailed(n.id, 'the channel is disabled', null, null)
        continue
      }
      // A mute applies at send time: alerts muted since they were queued are not sent.
      const muted = new Set(this.repo.mutedRowsOf(n.id, now))
      const rows = this.repo.rowsOf(n.id).filter((r) => !muted.has(r.id))
      if (muted.size > 0 && rows.length === 0) {
        this.repo.suppressed(
          n.id,
          `suppressed (muted): ${muted.size} ${muted.size === 1 ? 'alert' : 'alerts'} muted since queued, nothing sent`
        )
        continue
      }
      busy.add(n.channel_id)
      const kept = rows.map(({ event_id, kind, item }) => ({ event_id, kind, item }))
      sends.push({
        notification: n,
        rows: kept,
        note: muted.size > 0 ? `${muted.size} of ${muted.size + rows.length} alerts suppressed (muted since queued)` : undefined,
        failing: this.failingBesides(notificationOf(n.uid, kept, this.consoleUrl), kept),
        users: []
      })
    }
    if (sends.length > 0) {
      const users = this.store.users.list().map(({ id, email, timezone }) => ({ id, email, timezone }))
      for (const send of sends) send.users = users
    }
    return sends
  }

  /** The failures active now on the notification's hosts that it does not tell of ("also failing now"). */
  private failingBesides(notification: AlertNotification, rows: readonly OutboxRow[]): FailingNow[] {
    const told = new Set(rows.map((r) => r.event_id))
    const hosts = [...new Set(notification.alerts.map((a) => a.hostid))].slice(0, MAX_FAILING_HOSTS)
    return this.repo
      .currentFailures(hosts, MAX_FAILING + told.size)
      .filter((f) => !told.has(f.event_id))
      .slice(0, MAX_FAILING)
      .map((f) => ({
        hostid: f.host_id,
        host: f.hostname,
        serviceid: f.class === EventClassId.Heartbeat ? null : f.service_id,
        service: f.service_name,
        servicetype: f.service_type,
        event: eventName(f.class),
        state: 'failed',
        message: f.message,
        date: f.date
      }))
  }
}

/** The notification its rows make; the same each time they are read (sent again after a failure or a restart). */
export function notificationOf(uid: string, rows: readonly OutboxRow[], consoleUrl: string): AlertNotification {
  const entries: OutboxEntry[] = rows.map((r) => ({ eventId: r.event_id, kind: r.kind, item: JSON.parse(r.item) as AlertItem }))
  return buildNotification(uid, entries, consoleUrl)
}
