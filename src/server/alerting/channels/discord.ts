// The `discord` channel (issue 13): Discord's execute-webhook request. One POST of JSON to the webhook
// URL (the URL is the credential: a secret field):
//
//   {"content": "**<subject>**\n<body>", "allowed_mentions": {"parse": []}}
//
// `content` is at most 2000 characters, so a long body is cut cleanly (at a line end, with "…");
// `allowed_mentions` with nothing to parse keeps an "@everyone" or "<@id>" in a service's message from
// pinging anyone. Discord answers 204 No Content; errors are JSON {"message", "code"} (a 400 adds
// "errors" naming the field), and 429 carries "retry_after" in seconds, reported with the error.
import { discordSettings, type DiscordSettings } from '../../../shared/alert-channel-settings/message-services'
import type { ChannelType } from '../channel'
import { deliver, errorDetail, excerpt, parseJson, truncate, type HttpAnswer } from './http'

export const DISCORD_MAX_CONTENT = 2000

/** Escapes Discord's markdown in a line that is set in bold. */
const escapeMarkdown = (text: string) => text.replace(/([\\*_~`|>])/g, '\\$1')

export function discordContent(subject: string, body: string): string {
  const title = subject.trim() ? `**${escapeMarkdown(subject.trim())}**\n` : ''
  return truncate(title + body.trimEnd(), DISCORD_MAX_CONTENT)
}

/** "Invalid Form Body (code 50035): content: Must be 2000 or fewer in length." */
function discordDetail(answer: HttpAnswer): string {
  const base = errorDetail(answer)
  const json = parseJson(answer.text) as { errors?: unknown } | undefined
  const first = json?.errors ? firstFieldError(json.errors, []) : undefined
  return first ? excerpt(`${base}: ${first}`, 300) : base
}

function firstFieldError(node: unknown, path: string[]): string | undefined {
  if (!node || typeof node !== 'object') return undefined
  const o = node as Record<string, unknown>
  if (Array.isArray(o._errors)) {
    const e = o._errors[0] as { message?: unknown } | undefined
    if (typeof e?.message === 'string') return `${path.join('.') || 'request'}: ${e.message}`
  }
  for (const [key, value] of Object.entries(o)) {
    if (key === '_errors') continue
    const found = firstFieldError(value, [...path, key])
    if (found) return found
  }
  return undefined
}

export const discord: ChannelType<DiscordSettings> = {
  type: 'discord',
  settings: discordSettings,
  secretFields: ['url'],
  async send(settings, _notification, message, context) {
    return deliver(
      {
        service: 'Discord',
        url: new URL(settings.url),
        body: JSON.stringify({ content: discordContent(message.subject, message.body), allowed_mentions: { parse: [] } }),
        contentType: 'application/json',
        signal: context.signal
      },
      { detail: discordDetail }
    )
  }
}
