// The `gotify` channel (issue 13): Gotify's create-message request with an application token.
//
//   POST <url>/message                  (a server behind a path prefix keeps it)
//   X-Gotify-Key: <token>               the application's token (a secret field), not in the URL
//   {"title": <subject>, "message": <body>, "priority": 0–10,
//    "extras": {"client::display": {"contentType": "text/plain"},
//               "client::notification": {"click": {"url": <link>}}}}
//
// Priority is the setting, or without one: 8 when something failed (Gotify's Android client pops those
// up), 5 otherwise. The click extra opens the console page when the link is an absolute URL. Gotify
// answers 200 with the stored message; errors are JSON {"error", "errorCode", "errorDescription"}.
import { z } from 'zod'
import type { ChannelType } from '../channel'
import { absoluteLink, deliver, joinUrl, worstState } from './http'
import { httpUrl } from '../../../shared/alert-channel-settings/args'

const PRIORITY_MESSAGE = 'priority must be a whole number from 0 to 10'

export const gotifySettings = z.object({
  url: httpUrl(),
  token: z.string({ message: 'token is required' }).trim().min(1, 'token is required').max(200, 'token is longer than 200 characters')
    .regex(/^[\x21-\x7e]+$/, 'token must be the application token, without spaces'),
  /** Not among issue 13's arguments: optional, to override the priority by state. */
  priority: z.union([z.number(), z.string()], { message: PRIORITY_MESSAGE }).optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined
      const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN
      if (Number.isInteger(n) && n >= 0 && n <= 10) return n
      ctx.addIssue({ code: 'custom', message: PRIORITY_MESSAGE })
      return z.NEVER
    })
})
export type GotifySettings = z.output<typeof gotifySettings>

export const gotify: ChannelType<GotifySettings> = {
  type: 'gotify',
  settings: gotifySettings,
  secretFields: ['token'],
  async send(settings, notification, message, context) {
    const click = absoluteLink(notification.link)
    const body = {
      title: message.subject.trim(),
      message: message.body.trimEnd(),
      priority: settings.priority ?? (worstState(notification) === 'failed' ? 8 : 5),
      extras: {
        'client::display': { contentType: 'text/plain' },
        ...(click ? { 'client::notification': { click: { url: click } } } : {})
      }
    }
    return deliver({
      service: 'Gotify',
      url: joinUrl(settings.url, 'message'),
      headers: { 'X-Gotify-Key': settings.token },
      body: JSON.stringify(body),
      contentType: 'application/json',
      signal: context.signal
    })
  }
}
