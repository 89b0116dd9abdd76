// The settings of the channels that post to a messaging service (issue 13): Slack and Discord (the
// webhook URL is the credential), ntfy, Gotify and Telegram.
import { z } from 'zod'
import { httpUrl, httpUrlOr, optionalSecret } from './args'

export const slackSettings = z.object({ url: httpUrl() })
export type SlackSettings = z.output<typeof slackSettings>

export const discordSettings = z.object({ url: httpUrl() })
export type DiscordSettings = z.output<typeof discordSettings>

export const NTFY_DEFAULT_URL = 'https://ntfy.sh'
const NTFY_PRIORITY_NAMES: Record<string, number> = { min: 1, low: 2, default: 3, high: 4, max: 5, urgent: 5 }
const NTFY_PRIORITY_MESSAGE = 'priority must be 1–5 or min, low, default, high, urgent'

/** 1–5, or one of ntfy's names; empty means "by state". */
const ntfyPriority = z
  .union([z.number(), z.string()], { message: NTFY_PRIORITY_MESSAGE })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined
    const s = String(v).trim().toLowerCase()
    const n = NTFY_PRIORITY_NAMES[s] ?? (/^\d+$/.test(s) ? Number(s) : NaN)
    if (Number.isInteger(n) && n >= 1 && n <= 5) return n
    ctx.addIssue({ code: 'custom', message: NTFY_PRIORITY_MESSAGE })
    return z.NEVER
  })

/** Topic names are letters, digits, "_" and "-", at most 64, as ntfy requires. */
export const ntfySettings = z.object({
  url: httpUrlOr(NTFY_DEFAULT_URL),
  topic: z
    .string({ message: 'topic is required' })
    .trim()
    .min(1, 'topic is required')
    .regex(/^[-_A-Za-z0-9]{1,64}$/, 'topic must be 1–64 letters, digits, "_" or "-"'),
  priority: ntfyPriority,
  token: optionalSecret('token')
})
export type NtfySettings = z.output<typeof ntfySettings>

const GOTIFY_PRIORITY_MESSAGE = 'priority must be a whole number from 0 to 10'

export const gotifySettings = z.object({
  url: httpUrl(),
  token: z
    .string({ message: 'token is required' })
    .trim()
    .min(1, 'token is required')
    .max(200, 'token is longer than 200 characters')
    .regex(/^[\x21-\x7e]+$/, 'token must be the application token, without spaces'),
  /** Not among issue 13's arguments: optional, to override the priority by state. */
  priority: z
    .union([z.number(), z.string()], { message: GOTIFY_PRIORITY_MESSAGE })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined
      const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN
      if (Number.isInteger(n) && n >= 0 && n <= 10) return n
      ctx.addIssue({ code: 'custom', message: GOTIFY_PRIORITY_MESSAGE })
      return z.NEVER
    })
})
export type GotifySettings = z.output<typeof gotifySettings>

export const TELEGRAM_DEFAULT_API = 'https://api.telegram.org'

export const telegramSettings = z.object({
  apiurl: httpUrlOr(TELEGRAM_DEFAULT_API, 'apiurl'),
  token: z
    .string({ message: 'token is required' })
    .trim()
    .min(1, 'token is required')
    .regex(/^\d+:[A-Za-z0-9_-]+$/, 'token must be a bot token as BotFather gives it, like 123456789:AAH…'),
  chatid: z
    .union([z.string(), z.number()], { message: 'chatid is required' })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, 'chatid is required')
        .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,})$/, 'chatid must be a numeric chat id (e.g. -1001234567890) or a @channelusername')
    )
})
export type TelegramSettings = z.output<typeof telegramSettings>
