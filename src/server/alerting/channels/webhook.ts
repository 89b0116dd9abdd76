// The `webhook` channel (issue 13): the notification as JSON, POSTed verbatim to any URL.
//
//   POST <url>
//   Content-Type: application/json
//   X-Overseer-Notification: <notification id>      stable across retries and restarts: de-duplicate on it
//   X-Overseer-Signature: sha256=<hex>              only with a secret: HMAC-SHA256 of the exact body bytes
//   <custom headers>                                the repeatable `header` setting, "Name: value"
//
//   {"id": …, "summary": …, "link": …, "alerts": [{"hostid", "host", "serviceid", "service", "servicetype",
//    "event", "state", "message", "date", "link"}]}
//
// Receivers verify the signature by computing HMAC-SHA256 over the raw body they received (before any
// JSON parsing) with the shared secret, and comparing "sha256=" + hex in constant time. Any 2xx answer is
// a delivery; anything else is an error naming the status and the start of the answer.
import { createHmac } from 'node:crypto'
import {
  NOTIFICATION_HEADER,
  parseHeader,
  SIGNATURE_HEADER,
  webhookSettings,
  type WebhookSettings
} from '../../../shared/alert-channel-settings/webhook'
import type { ChannelType } from '../channel'
import { deliver } from './http'

/** The signature header's value for a body: "sha256=" + hex HMAC-SHA256 with the secret. */
export function signature(secret: string, body: Uint8Array | string): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex')
}

export const webhook: ChannelType<WebhookSettings> = {
  type: 'webhook',
  settings: webhookSettings,
  secretFields: ['secret'],
  secretHeaderFields: ['header'],
  async send(settings, notification, _message, context) {
    const url = new URL(settings.url)
    const body = Buffer.from(JSON.stringify(notification), 'utf8')
    const headers: Record<string, string> = {}
    for (const line of settings.header) {
      const parsed = parseHeader(line)
      if (typeof parsed === 'string') return { ok: false, error: parsed }
      headers[parsed[0]] = headers[parsed[0]] === undefined ? parsed[1] : `${headers[parsed[0]]}, ${parsed[1]}`
    }
    headers[NOTIFICATION_HEADER] = notification.id
    if (settings.secret) headers[SIGNATURE_HEADER] = signature(settings.secret, body)
    return deliver({ service: url.host, url, headers, body, contentType: 'application/json', signal: context.signal })
  }
}
