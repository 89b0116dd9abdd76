// The `slack` channel (issue 13): Slack's incoming-webhook format, which Mattermost and Rocket.Chat accept
// too. One POST of {"text": …} to the webhook URL (the URL is the credential: a secret field).
//
// The text is Slack's mrkdwn, in which &, < and > are control characters (`<!channel>` would ping a whole
// channel, `<url|label>` is a link): Slack's message-formatting rules ask senders to escape them as
// &amp; &lt; &gt;, so a service's message can never mention anyone or forge a link. The subject comes
// first in bold, then the body. Slack answers 200 "ok"; its errors are short texts such as
// "invalid_payload", "no_service", "channel_not_found", "action_prohibited" (Mattermost answers JSON
// with a "message").
import type { ChannelType } from '../channel'
import { deliver, truncate } from './http'
import { slackSettings, type SlackSettings } from '../../../shared/alert-channel-settings/message-services'

/** Slack truncates longer messages; stay below its limit on a text block. */
const MAX_TEXT = 39_000

/** Escapes the three characters Slack's mrkdwn treats as markup. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function slackText(subject: string, body: string): string {
  const title = subject.trim() ? `*${slackEscape(subject.trim())}*\n` : ''
  return truncate(title + slackEscape(body.trimEnd()), MAX_TEXT)
}

export const slack: ChannelType<SlackSettings> = {
  type: 'slack',
  settings: slackSettings,
  secretFields: ['url'],
  async send(settings, _notification, message, context) {
    const url = new URL(settings.url)
    const service = url.hostname === 'hooks.slack.com' ? 'Slack' : url.host
    return deliver({
      service,
      url,
      body: JSON.stringify({ text: slackText(message.subject, message.body) }),
      contentType: 'application/json',
      signal: context.signal
    })
  }
}
