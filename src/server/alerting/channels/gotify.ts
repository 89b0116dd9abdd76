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
import { gotifySettings, type GotifySettings } from '../../../shared/alert-channel-settings/message-services'
import type { ChannelType } from '../channel'
import { absoluteLink, deliver, joinUrl, worstState } from './http'

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
