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
import { z } from 'zod'
import type { ChannelType } from '../channel'
import { deliver } from './http'
import { httpUrl, optionalSecret } from '../../../shared/alert-channel-settings/args'

export const NOTIFICATION_HEADER = 'X-Overseer-Notification'
export const SIGNATURE_HEADER = 'X-Overseer-Signature'

/** Headers Overseer sets itself, or that HTTP itself owns: a custom header may not replace them. */
const RESERVED = new Set([
  'content-type', 'content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect',
  'te', 'trailer', NOTIFICATION_HEADER.toLowerCase(), SIGNATURE_HEADER.toLowerCase()
])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// Visible characters, spaces and tabs; Latin-1 at most, as HTTP header values are bytes.
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/** "Name: value" → [name, value], or an error text. */
export function parseHeader(line: string): [string, string] | string {
  const colon = line.indexOf(':')
  if (colon <= 0) return `header "${line}" is not of the form "Name: value"`
  const name = line.slice(0, colon).trim()
  const value = line.slice(colon + 1).trim()
  if (!TOKEN.test(name)) return `header name "${name}" is not a valid HTTP header name`
  if (RESERVED.has(name.toLowerCase())) return `header "${name}" is set by Overseer and cannot be replaced`
  if (!VALUE.test(value)) return `header "${name}" has a value with line breaks or characters HTTP headers cannot carry`
  return [name, value]
}

const headerLine = z.string().trim().max(8000, 'header is longer than 8000 characters').superRefine((line, ctx) => {
  if (line === '') return // an empty form field: no header (dropped below)
  const parsed = parseHeader(line)
  if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed })
})

export const webhookSettings = z.object({
  url: httpUrl(),
  // An array at the top (under the default) so that the API's argument reader sees a repeatable argument.
  header: z.array(headerLine).max(20, 'at most 20 headers').overwrite((lines) => lines.filter((l) => l !== '')).default([]),
  secret: optionalSecret('secret')
})
export type WebhookSettings = z.output<typeof webhookSettings>

/** The signature header's value for a body: "sha256=" + hex HMAC-SHA256 with the secret. */
export function signature(secret: string, body: Uint8Array | string): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex')
}

export const webhook: ChannelType<WebhookSettings> = {
  type: 'webhook',
  settings: webhookSettings,
  secretFields: ['secret'],
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
