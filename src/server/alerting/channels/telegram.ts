// The `telegram` channel (issue 13): the Bot API's sendMessage.
//
//   POST <apiurl>/bot<token>/sendMessage    apiurl https://api.telegram.org unless set (tests, a local Bot API server)
//   {"chat_id": <chatid>, "text": <subject + body, ≤ 4096 characters>, "disable_web_page_preview": true}
//
// Plain text (no parse_mode), so nothing in a service's message needs escaping. Telegram answers
// {"ok": true, "result": …} or {"ok": false, "error_code", "description"}: the description is the error
// ("Bad Request: chat not found", "Unauthorized", "Forbidden: bot was blocked by the user"); a 429
// carries parameters.retry_after. The token is part of the URL's path: error texts never show it.
import { telegramSettings, type TelegramSettings } from '../../../shared/alert-channel-settings/message-services'
import type { ChannelType } from '../channel'
import { deliver, joinUrl, parseJson, truncate } from './http'

export const TELEGRAM_MAX_TEXT = 4096

export function telegramText(subject: string, body: string): string {
  const title = subject.trim() ? `${subject.trim()}\n\n` : ''
  return truncate(title + body.trimEnd(), TELEGRAM_MAX_TEXT)
}

export const telegram: ChannelType<TelegramSettings> = {
  type: 'telegram',
  settings: telegramSettings,
  secretFields: ['token'],
  async send(settings, _notification, message, context) {
    const chatId =
      /^-?\d+$/.test(settings.chatid) && Number.isSafeInteger(Number(settings.chatid)) ? Number(settings.chatid) : settings.chatid
    return deliver(
      {
        service: 'Telegram',
        url: joinUrl(settings.apiurl, `bot${settings.token}`, 'sendMessage'),
        body: JSON.stringify({ chat_id: chatId, text: telegramText(message.subject, message.body), disable_web_page_preview: true }),
        contentType: 'application/json',
        signal: context.signal
      },
      {
        // A 200 that is not {"ok": true} is not a delivery either.
        check: (answer) => {
          const json = parseJson(answer.text) as { ok?: unknown; description?: unknown } | undefined
          if (json?.ok === true) return undefined
          return typeof json?.description === 'string' ? json.description : 'the answer is not {"ok": true}'
        }
      }
    )
  }
}
