// Every channel type's settings rules by type, named as the API's arguments: the server parses a
// channel's arguments with them, the console's channel form checks its fields with them first.
import { z } from 'zod'
import { emailSettings } from './email'
import { jabberSettings } from './jabber'
import { discordSettings, gotifySettings, ntfySettings, slackSettings, telegramSettings } from './message-services'
import { programSettings } from './program'
import { webhookSettings } from './webhook'

export const desktopSettings = z.object({})

export const CHANNEL_SETTINGS: Readonly<Record<string, z.ZodType>> = {
  email: emailSettings,
  webhook: webhookSettings,
  slack: slackSettings,
  discord: discordSettings,
  ntfy: ntfySettings,
  gotify: gotifySettings,
  telegram: telegramSettings,
  program: programSettings,
  jabber: jabberSettings,
  desktop: desktopSettings
}
