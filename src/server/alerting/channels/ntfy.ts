// The `ntfy` channel (issue 13): ntfy's "publish as JSON" form, a POST to the server's root URL:
//
//   POST <url>/                       (https://ntfy.sh/ by default; a server behind a path prefix keeps it)
//   Authorization: Bearer <token>     only with a token (an access token for a protected topic)
//   {"topic", "title": <subject>, "message": <body>, "priority": 1–5, "tags": ["rotating_light"], "click": <link>}
//
// The JSON form rather than the Title/Priority/Tags/Click headers of a POST to <url>/<topic>: titles hold
// any Unicode (host names, "·", "…"), which header values cannot carry as such. Priority is the setting,
// or without one: high (4) when something failed, default (3) otherwise. Tags show as emoji:
// rotating_light (failed), warning (changed), white_check_mark (succeeded). `click` opens the console
// page, when the notification's link is an absolute URL. ntfy caps messages at 4096 bytes; a longer body
// is cut cleanly.
import { ntfySettings, type NtfySettings } from '../../../shared/alert-channel-settings/message-services'
import type { AlertState } from '../../../shared/api/alerts'
import type { ChannelType } from '../channel'
import { absoluteLink, deliver, joinUrl, truncate, utf8Bytes, worstState } from './http'

const MAX_MESSAGE_BYTES = 4096
const MAX_TITLE = 250

export const TAGS: Record<AlertState, string> = { failed: 'rotating_light', changed: 'warning', succeeded: 'white_check_mark' }

export const ntfy: ChannelType<NtfySettings> = {
  type: 'ntfy',
  settings: ntfySettings,
  secretFields: ['token'],
  async send(settings, notification, message, context) {
    const state = worstState(notification)
    const click = absoluteLink(notification.link)
    const publish = {
      topic: settings.topic,
      title: truncate(message.subject.trim(), MAX_TITLE),
      message: truncate(message.body.trimEnd(), MAX_MESSAGE_BYTES, utf8Bytes),
      priority: settings.priority ?? (state === 'failed' ? 4 : 3),
      tags: [TAGS[state]],
      ...(click ? { click } : {})
    }
    return deliver({
      service: 'ntfy',
      url: joinUrl(settings.url, ''),
      headers: settings.token ? { Authorization: `Bearer ${settings.token}` } : {},
      body: JSON.stringify(publish),
      contentType: 'application/json',
      signal: context.signal
    })
  }
}
