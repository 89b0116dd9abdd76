// Sends the alert outbox (issue 13). Each pass asks the outbox (alert-outbox-pass.ts: on this thread on
// SQLite, on the jobs' thread on PostgreSQL) to queue reminders, group what waited long enough and hand
// over the next due notification of every channel not sending, then starts their sends. Sends run in
// the background with a timeout, at most one per channel, so a slow or dead channel delays neither the
// collector nor another channel. A result is recorded when the send ends: delivered, or retried with
// backoff until given up. A crash during a send leaves the notification pending: it is sent again
// (at-least-once, same uid).
import type { ChannelType, SendContext, SendResult } from '../alerting/channel'
import { openSettings } from '../alerting/channel-secrets'
import { channelType } from '../alerting/channels'
import { sendWithin } from '../alerting/send-within'
import { serverTimeZone } from '../alerting/alert-time'
import { renderMessage } from '../alerting/templates'
import type { SecretBox } from '../auth/secret-box'
import { RepeatedFailureLog } from '../log'
import type { Store } from '../store/store'
import {
  AlertOutboxPass,
  MAX_ERROR_CHARS,
  notificationOf,
  type OutboxPassResult,
  type PreparedSend,
  type RecordOutcome,
  type SentNotification
} from './alert-outbox-pass'
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

/** Where the outbox's statements run: on this thread (an AlertOutboxPass), or the jobs' thread's. */
export interface AlertOutbox {
  run(nowMs: number, sending: readonly number[]): OutboxPassResult | Promise<OutboxPassResult>
  record(n: SentNotification, result: SendResult, nowMs: number): RecordOutcome | Promise<RecordOutcome>
}

const DEFAULT_SEND_TIMEOUT_MS = 30_000

export class AlertDeliveryJob {
  private readonly outbox: AlertOutbox
  private readonly now: () => number
  /** The send running per channel id, and what stops it with the server. */
  private readonly inFlight = new Map<number, { done: Promise<void>; abort: AbortController }>()
  private stopped = false
  private readonly recordFailures: RepeatedFailureLog
  private job: PeriodicJob<Promise<number | undefined>> | undefined

  constructor(
    store: Store,
    private readonly secrets: SecretBox,
    private readonly options: AlertDeliveryOptions,
    private readonly reporting: JobReporting,
    /** Default: the outbox's statements on this thread. */
    outbox?: AlertOutbox
  ) {
    this.outbox = outbox ?? new AlertOutboxPass(store, options.consoleUrl, options.keepSec)
    this.now = options.now ?? Date.now
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
   * One pass; the sends it starts run on after it resolves. When the grouping found the write lock taken,
   * it resolves with how soon to run again: that run only writes what this one grouped.
   */
  async runOnce(): Promise<number | undefined> {
    const { sends, retryMs, failure } = await this.outbox.run(this.now(), [...this.inFlight.keys()])
    for (const send of sends) this.startSend(send)
    if (failure !== undefined) throw failure
    return retryMs
  }

  private startSend(send: PreparedSend): void {
    const n = send.notification
    // Stopped while the pass ran (on the jobs' thread): the notification stays pending for the next start.
    if (this.stopped || this.inFlight.has(n.channel_id)) return
    const abort = new AbortController()
    const done = this.attempt(send, abort.signal)
      .then((result) =>
        this.record(n, send.note === undefined ? result : { ...result, log: [send.note, result.log].filter(Boolean).join('\n') })
      )
      .finally(() => this.inFlight.delete(n.channel_id))
    this.inFlight.set(n.channel_id, { done, abort })
  }

  /** One attempt; never rejects: every failure is a result in the channel's or our words. */
  private async attempt({ notification: n, rows, failing, users }: PreparedSend, stop: AbortSignal): Promise<SendResult> {
    try {
      const type = channelType(n.channel_type, this.options.channelTypes)
      if (!type) return { ok: false, error: `no channel type '${n.channel_type}' in this server` }
      const settings = type.settings.parse(openSettings(type, n.settings, this.secrets))
      const notification = notificationOf(n.uid, rows, this.options.consoleUrl)
      const templates = { subject: n.subject_template, body: n.body_template }
      const messageIn = (timeZone: string) =>
        renderMessage(templates, notification, { timeZone, consoleUrl: this.options.consoleUrl, failing })
      const message = messageIn(serverTimeZone())
      const byId = new Map(users.map((u) => [u.id, u]))
      const addressed = (ids: readonly number[]) => ids.flatMap((id) => byId.get(id) ?? [])
      const context: SendContext = {
        userEmails: (ids) => addressed(ids).flatMap((u) => u.email || []),
        userTimeZones: (ids) =>
          new Map(addressed(ids).flatMap((u) => (u.email && u.timezone ? [[u.email.toLowerCase(), u.timezone] as const] : []))),
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

  private async record(n: SentNotification, result: SendResult): Promise<void> {
    // Cut short by the stop: not the channel's failure; sent again after the restart.
    if (this.stopped) return
    try {
      const outcome = await this.outbox.record(n, result, this.now())
      if (outcome === 'given-up' && !result.ok) {
        this.reporting.log.warn(
          `alert delivery: notification ${n.uid} to channel ${n.channel_id} given up after ${n.attempts + 1} attempts: ${result.error.slice(0, MAX_ERROR_CHARS)}`
        )
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
