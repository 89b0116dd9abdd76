// admin/alerts/channels/list|get|create|update|delete|test (issue 13, our extension): where alert
// notifications go. Secrets are write-only (alerting/channel-secrets.ts).
import { z } from 'zod'
import type { AlertChannelRecord, AlertNotification } from '../../shared/api/alerts'
import type { ChannelType, SendContext } from '../alerting/channel'
import { openSettings, publicSettings, sealSecrets } from '../alerting/channel-secrets'
import { channelType, channelTypes } from '../alerting/channels'
import { sendWithin } from '../alerting/send-within'
import { serverTimeZone } from '../alerting/alert-time'
import { compileTemplate, renderMessage, TemplateError } from '../alerting/templates'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { AlertChannelRow } from '../store/alert-channels'
import { readChannelSettings } from './alert-channel-settings'
import { actorOf, detailOf, removalEndpoint } from './audit'
import type { ApiDeps } from './deps'
import { alertChannelListAnswer, alertChannelRecord } from '../../shared/api/alerts'
import { createdAnswer, testOutcome } from '../../shared/api/common'

/** How long channels/test waits for the channel before answering red. */
const TEST_TIMEOUT_MS = 15_000

/** A template, checked when given; '' is the default template (null). */
const template = arg
  .text(10_000)
  .optional()
  .transform((source, ctx) => {
    if (source === undefined || source === '') return source === undefined ? undefined : null
    try {
      compileTemplate(source)
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err
      ctx.addIssue({ code: 'custom', message: err.message })
      return z.NEVER
    }
    return source
  })

const editable = { enabled: arg.bool().optional(), subject: template, body: template }

export function adminAlertChannelEndpoints({ store, secrets, alertChannelTypes = channelTypes, desktop }: ApiDeps): ApiEndpoint[] {
  const channels = store.alertChannels
  const typeNamed = (type: string): ChannelType => {
    const found = channelType(type, alertChannelTypes)
    if (!found) throw badArgument('type', `expected one of ${alertChannelTypes.map((t) => t.type).join(', ')}`)
    return found
  }
  /** A stored channel's type: unknown only after a downgrade to a build without it. */
  const typeOf = (channel: AlertChannelRow): ChannelType => {
    const found = channelType(channel.type, alertChannelTypes)
    if (!found) throw new HttpError(400, `alert channel ${channel.id} is of type '${channel.type}', which this server does not have`)
    return found
  }
  const existing = (id: number): AlertChannelRow => {
    const channel = channels.find(id)
    if (!channel) throw new HttpError(404, `no alert channel with id ${id}`)
    return channel
  }
  const requireFreeName = (name: string, exceptId?: number) => {
    const holder = channels.idOfName(name)
    if (holder !== undefined && holder !== exceptId) throw new HttpError(409, `an alert channel named '${name}' exists already`)
  }
  const record = (row: AlertChannelRow): AlertChannelRecord => {
    const type = channelType(row.type, alertChannelTypes)
    // A type this build does not know (a downgrade): which fields are secret is unknown, so show none.
    const { settings, secrets: set } = type ? publicSettings(type, row.settings) : { settings: {}, secrets: {} }
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      enabled: row.enabled === 1,
      subject: row.subject_template,
      body: row.body_template,
      settings,
      secrets: set,
      createdat: row.created_at
    }
  }
  const users = (ids: readonly number[]) => ids.flatMap((id) => store.users.find(id) ?? [])
  const context = (signal: AbortSignal, messageIn: SendContext['messageIn']): SendContext => ({
    signal,
    desktop,
    messageIn,
    userEmails: (ids) => users(ids).flatMap((u) => u.email || []),
    userTimeZones: (ids) =>
      new Map(users(ids).flatMap((u) => (u.email && u.timezone ? [[u.email.toLowerCase(), u.timezone] as const] : [])))
  })

  return [
    endpoint({
      path: 'admin/alerts/channels/list',
      summary: 'Every alert channel, and the channel types this server has',
      extension: true,
      answer: alertChannelListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ types: alertChannelTypes.map((t) => t.type), records: channels.list().map(record) })
    }),
    endpoint({
      path: 'admin/alerts/channels/get',
      summary: 'One alert channel (secrets only as set or not)',
      extension: true,
      answer: alertChannelRecord,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { id: arg.int() },
      handle: ({ params: { id } }) => record(existing(id))
    }),
    endpoint({
      path: 'admin/alerts/channels/create',
      summary: "Creates an alert channel; its type's settings as arguments",
      extension: true,
      answer: createdAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { type: arg.required(64), name: arg.required(255), ...editable },
      handle: (ctx) => {
        const { params: p, raw } = ctx
        const type = typeNamed(p.type)
        const settings = readChannelSettings(type, raw)
        requireFreeName(p.name)
        // Its settings stay out of the log: a webhook's URL or a token may be the secret.
        const what = (id: number) => ({
          action: 'alert-channel.create',
          target: `alert-channel ${id} ${p.name}`,
          detail: detailOf({ type: type.type })
        })
        const create = () =>
          channels.create(
            {
              name: p.name,
              type: type.type,
              enabled: p.enabled ?? true,
              settings: sealSecrets(type, settings, secrets),
              subject_template: p.subject ?? null,
              body_template: p.body ?? null
            },
            Math.floor(Date.now() / 1000)
          )
        return { id: store.auditLog.recording(actorOf(ctx), what, create) }
      }
    }),
    endpoint({
      path: 'admin/alerts/channels/update',
      summary: 'Changes an alert channel; an empty secret keeps the stored one',
      extension: true,
      answer: alertChannelRecord,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), name: arg.required(255).optional(), ...editable },
      handle: (ctx) => {
        const { params: p, raw } = ctx
        const channel = existing(p.id)
        const type = typeOf(channel)
        const settings = readChannelSettings(type, raw, openSettings(type, channel.settings, secrets))
        const name = p.name ?? channel.name
        requireFreeName(name, channel.id)
        const what = {
          action: 'alert-channel.update',
          target: `alert-channel ${channel.id} ${name}`,
          detail: detailOf({ enabled: p.enabled })
        }
        store.auditLog.recording(actorOf(ctx), what, () =>
          channels.update(channel.id, {
            name,
            type: channel.type,
            enabled: p.enabled ?? channel.enabled === 1,
            settings: sealSecrets(type, settings, secrets),
            subject_template: p.subject === undefined ? channel.subject_template : p.subject,
            body_template: p.body === undefined ? channel.body_template : p.body
          })
        )
        return record(existing(channel.id))
      }
    }),
    removalEndpoint(store.auditLog, {
      path: 'admin/alerts/channels/delete',
      summary: 'Deletes an alert channel',
      entity: 'alert-channel',
      remove: (id) => channels.delete(id)
    }),
    endpoint({
      // POST only: it sends a message out, which a link in another site must not trigger.
      path: 'admin/alerts/channels/test',
      summary: 'Sends a test notification through a channel (green or red, always 200)',
      extension: true,
      answer: testOutcome,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int() },
      handle: async ({ params: { id }, request }) => {
        const channel = existing(id)
        const type = typeOf(channel)
        const consoleUrl = `${request.protocol}://${request.host}/`
        const notification = testNotification(`${consoleUrl}#/`)
        const templates = { subject: channel.subject_template, body: channel.body_template }
        const messageIn = (timeZone: string) => renderMessage(templates, notification, { timeZone, consoleUrl, failing: [] })
        const message = messageIn(serverTimeZone())
        const result = await sendWithin(TEST_TIMEOUT_MS, (signal) =>
          type.send(openSettings(type, channel.settings, secrets), notification, message, context(signal, messageIn))
        )
        // green/red is the outcome, as admin/hosts/test answers it: a failed test is still a 200.
        return result.ok
          ? { status: 'green' as const, description: `Sent to ${channel.name}${result.log ? `: ${result.log}` : ''}` }
          : { status: 'red' as const, description: result.error }
      }
    })
  ]
}

/** A notification that says what it is, in the shape of a real one (one alert). */
function testNotification(link: string): AlertNotification {
  const summary = 'This is a test from Overseer'
  return {
    id: `test-${Date.now()}`,
    summary,
    link,
    alerts: [
      {
        hostid: 0,
        host: 'Overseer',
        serviceid: null,
        service: 'test',
        servicetype: 5,
        // Not one of Monit's event types: the message's headline is the summary.
        event: 'Test',
        state: 'succeeded',
        message: summary,
        date: Math.floor(Date.now() / 1000),
        link
      }
    ]
  }
}
