// The `webhook` channel's settings (issue 13): the URL, extra headers ("Name: value", one per line) and
// the signing secret.
import { z } from 'zod'
import { httpUrl, optionalSecret } from './args'

export const NOTIFICATION_HEADER = 'X-Overseer-Notification'
/**
 * What the API shows for a stored header value, and what keeps it when sent back: beyond Latin-1, so no
 * header value can be it.
 */
export const HIDDEN_HEADER_VALUE = '••••••'
export const SIGNATURE_HEADER = 'X-Overseer-Signature'

/** Headers Overseer sets itself, or that HTTP itself owns: a custom header may not replace them. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  NOTIFICATION_HEADER.toLowerCase(),
  SIGNATURE_HEADER.toLowerCase()
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
  // The hidden value stands for the stored one (the form sends back what it was shown): the server puts it back.
  if (value !== HIDDEN_HEADER_VALUE && !VALUE.test(value)) {
    return `header "${name}" has a value with line breaks or characters HTTP headers cannot carry`
  }
  return [name, value]
}

const headerLine = z
  .string()
  .trim()
  .max(8000, 'header is longer than 8000 characters')
  .superRefine((line, ctx) => {
    if (line === '') return // an empty form field: no header (dropped below)
    const parsed = parseHeader(line)
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed })
  })

export const webhookSettings = z.object({
  url: httpUrl(),
  // An array at the top (under the default) so that the API's argument reader sees a repeatable argument.
  header: z
    .array(headerLine)
    .max(20, 'at most 20 headers')
    .overwrite((lines) => lines.filter((l) => l !== ''))
    .default([]),
  secret: optionalSecret('secret')
})
export type WebhookSettings = z.output<typeof webhookSettings>
