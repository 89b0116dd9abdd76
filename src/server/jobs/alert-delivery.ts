// Sends the alert outbox (issue 13). Each pass, on the main thread and in a few short statements:
// reminders due are queued (and failures inhibited during a host's silence that still fail once it is back), each channel whose group wait is over gets its ungrouped rows made into one
// notification (a stable uid stored with it, so a retry or a restart sends the same id), and every
// channel not busy starts the send of its next due notification. Sends run in the background with a
// timeout, at most one per channel, so a slow or dead channel delays neither the collector nor another
// channel. A result is recorded when the send ends: delivered, or retried with backoff until given up.
// A crash during a send leaves the notification pending: it is sent again (at-least-once, same uid).
// The collector's ingest thread holds SQLite's write lock most of the time under load: the notifications
// are built outside the write transaction, written together in one short one, and when the lock is
// taken the pass does not sleep in SQLite's busy handler (this thread serves HTTP) but retries the
// write 20 ms later (npm run bench -- alerting measures this).
import { randomUUID } from 'node:crypto'
import type { AlertItem, AlertNotification } from '../../shared/api/alerts'
import type { ChannelType, SendContext, SendResult } from '../alerting/channel'
import { openSettings } from '../alerting/channel-secrets'
import { channelType } from '../alerting/channels'
import { sendWithin } from '../alerting/send-within'
import { serverTimeZone } from '../alerting/alert-time'
import { renderMessage, type FailingNow } from '../alerting/templates'
import type { SecretBox } from '../auth/secret-box'
import { AlertEnqueuer } from '../events/alert-enqueuer'
import { FailuresInScope } from '../events/failures-in-scope'
import { afterFailure, buildNotification, MAX_ALERTS_PER_NOTIFICATION, reminderDueAt, type OutboxEntry } from '../domain/alert-delivery'
import { RepeatedFailureLog } from '../log'
import { EventClassId } from '../../shared/codes'
import { eventName } from '../domain/alert-words'
import type { AlertDeliveryRepository, DueNotification, PendingOutboxRow } from '../store/alert-deliveries'
import type { Store } from '../store/store'
import { PeriodicJob, type JobReporting } from './periodic-job'

export interface AlertDeliveryOptions {
  /** The console's base URL: the alerts' links are made absolute on it. */
  consoleUrl: string
  /** Milliseconds; tests move it instead of waiting. */
  now?: () => number
  /** A send still running after this long is aborted and counts as a failed attempt. */
  sendTimeoutMs?: number
  /** Finished notifications (and rows never grouped) older than this are deleted. */
  keepSec?: number
  /** The channel types; default the registry (alerting/channels). */
  channelTypes?: readonly ChannelType[]
  /** The desktop app's notifications, when it started this server (the `desktop` channel). */
  desktop?: SendContext['desktop']
}

const DEFAULT_SEND_TIMEOUT_MS = 30_000
const DEFAULT_KEEP_SEC = 30 * 86_400
/** Pruning runs once a minute, this many rows at a time, so that it never holds the thread. */
const PRUNE_EVERY_SEC = 60
/**
 * Reminders are minutes apart: the pass looks for due ones when the earliest it knows of is due, and at
 * least this often (an alert sent since, a rule changed), not every second on the thread that serves HTTP.
 */
const REMINDERS_AT_LEAST_EVERY_SEC = 60
/**
 * A host back from a silence replays its queued events first: its failures of the silent time that
 * still fail this long after it came back are told (at the reminders' pace), those that recovered not.
 */
const ANNOUNCE_AFTER_RETURN_SEC = 60
/** Silences that ended longer ago than this are not looked at again. */
const ANNOUNCE_WITHIN_SEC = 86_400
const PRUNE_STEP = 500
/** "Also failing now": the failures of at most this many of a notification's hosts, this many listed at most. */
const MAX_FAILING_HOSTS = 50
const MAX_FAILING = 200
/** What the delivery log keeps of a channel's words. */
const MAX_ERROR_CHARS = 2_000
const MAX_LOG_CHARS = 16_000
/** A pass whose grouping found the write lock taken is tried again after this long… */
const BUSY_RETRY_MS = 20
/** …this many times; then it waits for the lock like any other write. */
const MAX_BUSY_PASSES = 25

type NewNotification = Parameters<AlertDeliveryRepository['createNotification']>[0]

export class AlertDeliveryJob {
  private readonly repo: AlertDeliveryRepository
  private readonly enqueuer: AlertEnqueuer
  private readonly failuresInScope: FailuresInScope
  private readonly now: () => number
  /** The send running per channel id, and what stops it with the server. */
  private readonly inFlight = new Map<number, { done: Promise<void>; abort: AbortController }>()
  private stopped = false
  private readonly recordFailures: RepeatedFailureLog
  private job: PeriodicJob | undefined
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
    private readonly secrets: SecretBox,
    private readonly options: AlertDeliveryOptions,
    private readonly reporting: JobReporting
  ) {
    this.repo = store.alertDeliveries
    this.now = options.now ?? Date.now
    this.enqueuer = new AlertEnqueuer(store, this.now)
    this.failuresInScope = new FailuresInScope(store, this.now)
    this.recordFailures = new RepeatedFailureLog(reporting.log, 'alert delivery: recording a result')
  }

  start(intervalMs = 1_000): void {
    this.stopped = false
    this.job ??= new PeriodicJob({ ...this.reporting, name: 'alert delivery', intervalMs, run: () => this.runOnce() })
    this.job.start()
  }

  /** Stops the passes and aborts the sends running; their notifications stay pending for the next start. */
  async stop(): Promise<void> {
    this.job?.stop()
    this.job = undefined
    this.stopped = true
    for (const send of this.inFlight.values()) send.abort.abort(new Error('the server is stopping'))
    await this.idle()
  }

  /** Resolves once every send started so far has ended and its result is recorded. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((s) => s.done))
  }

  /**
   * One pass; the sends it starts run on after it returns. When the grouping finds the write lock taken,
   * the pass stops there and asks to run again shortly: that run only writes what this one grouped.
   */
  runOnce(): number | undefined {
    const now = Math.floor(this.now() / 1000)
    // One channel's grouping failing must not hold back the others: its error is reported after the pass.
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
      // its own). The ingest thread commits all the time: rather than have this thread (which serves
      // HTTP) sleep in SQLite's busy handler, the write is tried again shortly, waiting only after
      // several refusals in a row.
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
          if (failure !== undefined) throw failure
          return BUSY_RETRY_MS
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
    this.dispatch(now)
    // Pruning can wait: when the write lock is taken, it is tried again next pass.
    if (
      now - this.lastPruneSec >= PRUNE_EVERY_SEC &&
      this.store.sql.withoutWaiting(() => this.repo.prune(now - (this.options.keepSec ?? DEFAULT_KEEP_SEC), PRUNE_STEP))
    ) {
      this.lastPruneSec = now
    }
    if (failure !== undefined) throw failure
    return undefined
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
    const { summary, link, alerts } = this.build(uid, rows)
    return { uid, channelId, createdAt: now, summary, link, alertCount: alerts.length, rowIds: rows.map((r) => r.id) }
  }

  /** The notification its rows make; the same each time they are read (sent again after a failure or a restart). */
  private build(uid: string, rows: readonly Omit<PendingOutboxRow, 'id'>[]): AlertNotification {
    const entries: OutboxEntry[] = rows.map((r) => ({ eventId: r.event_id, kind: r.kind, item: JSON.parse(r.item) as AlertItem }))
    return buildNotification(uid, entries, this.options.consoleUrl)
  }

  private dispatch(now: number): void {
    for (const n of this.repo.dueNotifications(now)) {
      if (this.inFlight.has(n.channel_id)) continue
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
      const note = muted.size > 0 ? `${muted.size} of ${muted.size + rows.length} alerts suppressed (muted since queued)` : undefined
      const abort = new AbortController()
      const done = this.attempt(n, rows, abort.signal)
        .then((result) => this.record(n, note === undefined ? result : { ...result, log: [note, result.log].filter(Boolean).join('\n') }))
        .finally(() => this.inFlight.delete(n.channel_id))
      this.inFlight.set(n.channel_id, { done, abort })
    }
  }

  /** One attempt; never rejects: every failure is a result in the channel's or our words. */
  private async attempt(n: DueNotification, rows: readonly Omit<PendingOutboxRow, 'id'>[], stop: AbortSignal): Promise<SendResult> {
    try {
      const type = channelType(n.channel_type, this.options.channelTypes)
      if (!type) return { ok: false, error: `no channel type '${n.channel_type}' in this server` }
      const settings = type.settings.parse(openSettings(type, n.settings, this.secrets))
      const notification = this.build(n.uid, rows)
      const templates = { subject: n.subject_template, body: n.body_template }
      const failing = this.failingBesides(notification, rows)
      const messageIn = (timeZone: string) =>
        renderMessage(templates, notification, { timeZone, consoleUrl: this.options.consoleUrl, failing })
      const message = messageIn(serverTimeZone())
      const users = (ids: readonly number[]) => ids.flatMap((id) => this.store.users.find(id) ?? [])
      const context: SendContext = {
        userEmails: (ids) => users(ids).flatMap((u) => u.email || []),
        userTimeZones: (ids) =>
          new Map(users(ids).flatMap((u) => (u.email && u.timezone ? [[u.email.toLowerCase(), u.timezone] as const] : []))),
        messageIn,
        desktop: this.options.desktop,
        signal: stop
      }
      return await sendWithin(
        this.options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS,
        (signal) => type.send(settings, notification, message, { ...context, signal }),
        stop
      )
    } catch (err) {
      return { ok: false, error: errorText(err) }
    }
  }

  /** The failures active now on the notification's hosts that it does not tell of ("also failing now"). */
  private failingBesides(notification: AlertNotification, rows: readonly Omit<PendingOutboxRow, 'id'>[]): FailingNow[] {
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

  private record(n: DueNotification, result: SendResult): void {
    // Cut short by the stop: not the channel's failure; sent again after the restart.
    if (this.stopped) return
    try {
      const now = Math.floor(this.now() / 1000)
      const log = result.log === undefined ? null : result.log.slice(0, MAX_LOG_CHARS)
      if (result.ok) {
        this.repo.delivered(n.id, now, log)
      } else {
        const next = afterFailure(n.attempts + 1, n.created_at, now, result.retryAfterSec)
        const error = result.error.slice(0, MAX_ERROR_CHARS)
        this.repo.attemptFailed(n.id, error, log, 'retryAt' in next ? next.retryAt : null)
        if (!('retryAt' in next)) {
          this.reporting.log.warn(
            `alert delivery: notification ${n.uid} to channel ${n.channel_id} given up after ${n.attempts + 1} attempts: ${error}`
          )
        }
      }
      this.recordFailures.succeeded()
    } catch (err) {
      // Unrecorded, the notification stays pending and is sent again: at-least-once.
      this.recordFailures.failed(err, 'the notification stays pending and is sent again')
      this.reporting.onError?.(err)
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
