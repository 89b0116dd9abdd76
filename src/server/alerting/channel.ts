// One small interface for every notification channel (issue 13), like Uptime Kuma's providers: one
// module per type in ./channels, registered in ./channels/index.ts. A channel only delivers: matching,
// grouping, retries and the outbox are the delivery job's.
import type { z } from 'zod'
import type { AlertNotification } from '../../shared/api/alerts'

/** The text of a notification for people, rendered from the channel's templates (./templates.ts). */
export interface RenderedMessage {
  subject: string
  body: string
  /** The same words as HTML, for e-mail: only with the default body (a custom body is the whole message). */
  html?: string
}

export interface SendContext {
  /** Aborted when the delivery takes too long or the server stops: a send must give up then. */
  signal: AbortSignal
  /** Users' e-mail addresses by user id (the email channel's `userid` recipients). */
  userEmails?: (userIds: readonly number[]) => string[]
  /** The time zones users set for themselves, by lower-case e-mail address (users with none are not listed). */
  userTimeZones?: (userIds: readonly number[]) => ReadonlyMap<string, string>
  /** The message with its times in another zone (the e-mail to a user who set one). */
  messageIn?: (timeZone: string) => RenderedMessage
  /**
   * Hands the notification to the desktop app's native notifications (the `desktop` channel); true once
   * handed over. Absent when the server was not started by the desktop app.
   */
  desktop?: (notification: AlertNotification, message: RenderedMessage) => boolean
}

/** ok, or a clear error in the channel's own words (shown by admin/alerts/channels/test and the delivery log). */
/** A failure may say when to try again (`retryAfterSec`: a 429's or 503's Retry-After, Discord's and Telegram's retry_after). */
export type SendResult = { ok: true; log?: string } | { ok: false; error: string; log?: string; retryAfterSec?: number }

export interface ChannelType<S = unknown> {
  /** The `type` argument of admin/alerts/channels/create: email, webhook, slack, … */
  type: string
  /** The type's settings, named as the API's arguments (issue 13); validated on create and update. */
  settings: z.ZodType<S>
  /** Settings encrypted at rest (secret-box) and never returned by the API (write-only). */
  secretFields: readonly string[]
  /**
   * Lists of "Name: value" header lines whose values are secrets (tokens): sealed at rest, shown by the
   * API as "Name: HIDDEN_HEADER_VALUE", and a line sent back that way keeps its stored value.
   */
  secretHeaderFields?: readonly string[]
  send(settings: S, notification: AlertNotification, message: RenderedMessage, context: SendContext): Promise<SendResult>
}
