// Every channel type's form, in one place: the fields of admin/alerts/channels/create, named as the API
// names them. Adding a type to the console is one entry here; a type the server offers without an entry
// still gets a name and an on/off switch (its settings then come only through the API).

export type FieldKind =
  | 'text'
  /** Write-only: the API never returns it; empty on update keeps the stored value. */
  | 'secret'
  | 'number'
  /** A repeatable argument, one value per line. */
  | 'lines'
  | 'select'
  | 'switch'
  /** A repeatable argument of user ids (the users' e-mail addresses). */
  | 'users'

export interface ChannelField {
  /** The API's argument */
  name: string
  label: string
  kind: FieldKind
  description?: string
  placeholder?: string
  required?: boolean
  options?: readonly { value: string; label: string }[]
  /** The value of a new channel's form */
  initial?: string | boolean
}

export interface ChannelTypeForm {
  type: string
  label: string
  /** What the type sends where, under the type's picker */
  description: string
  fields: readonly ChannelField[]
}

const url = (placeholder: string, description?: string): ChannelField => ({
  name: 'url',
  label: 'URL',
  kind: 'text',
  required: true,
  placeholder,
  description
})

/** E-mail's and Jabber's choices, as both APIs name them */
const SECURITY = [
  { value: 'starttls', label: 'STARTTLS' },
  { value: 'tls', label: 'TLS from the start' },
  { value: 'none', label: 'None' }
]

export const CHANNEL_TYPES: readonly ChannelTypeForm[] = [
  {
    type: 'email',
    label: 'E-mail',
    description: 'Sends an e-mail through your SMTP server.',
    fields: [
      { name: 'smtphost', label: 'SMTP server', kind: 'text', required: true, placeholder: 'smtp.example.org' },
      { name: 'smtpport', label: 'Port', kind: 'number', description: 'Empty: 25, 587 or 465 after the security' },
      {
        name: 'smtpsecurity',
        label: 'Security',
        kind: 'select',
        initial: 'starttls',
        options: SECURITY
      },
      { name: 'smtptlsverify', label: "Verify the server's certificate", kind: 'switch', initial: true },
      { name: 'smtpuser', label: 'SMTP user', kind: 'text' },
      { name: 'smtppassword', label: 'SMTP password', kind: 'secret' },
      { name: 'from', label: 'From', kind: 'text', required: true, placeholder: 'Overseer <overseer@example.org>' },
      { name: 'to', label: 'To', kind: 'lines', description: 'One address per line' },
      { name: 'userid', label: 'Users', kind: 'users', description: "Also sends to these users' e-mail addresses" }
    ]
  },
  {
    type: 'webhook',
    label: 'Webhook',
    description: 'POSTs the notification as JSON to any URL (with a stable id, optionally signed).',
    fields: [
      url('https://example.org/hooks/overseer'),
      {
        name: 'header',
        label: 'Extra headers',
        kind: 'lines',
        placeholder: 'Authorization: Bearer …',
        description: 'One "Name: value" per line. Values are stored encrypted and shown as ••••••: a line left so keeps its value'
      },
      { name: 'secret', label: 'Signing secret', kind: 'secret', description: 'Signs the body with HMAC-SHA256 in X-Overseer-Signature' }
    ]
  },
  {
    type: 'slack',
    label: 'Slack',
    description: 'An incoming webhook of Slack, Mattermost or Rocket.Chat.',
    fields: [{ ...url('https://hooks.slack.com/services/…'), kind: 'secret' }]
  },
  {
    type: 'discord',
    label: 'Discord',
    description: "A Discord channel's webhook.",
    fields: [{ ...url('https://discord.com/api/webhooks/…'), kind: 'secret' }]
  },
  {
    type: 'ntfy',
    label: 'ntfy',
    description: 'Publishes to an ntfy topic.',
    fields: [
      { name: 'url', label: 'Server URL', kind: 'text', placeholder: 'https://ntfy.sh', description: 'Empty: https://ntfy.sh' },
      { name: 'topic', label: 'Topic', kind: 'text', required: true },
      {
        name: 'priority',
        label: 'Priority',
        kind: 'text',
        placeholder: 'by state',
        description: '1–5 or min, low, default, high, urgent; empty: by state'
      },
      { name: 'token', label: 'Access token', kind: 'secret' }
    ]
  },
  {
    type: 'gotify',
    label: 'Gotify',
    description: 'Sends a message to a Gotify server.',
    fields: [
      { name: 'url', label: 'Server URL', kind: 'text', required: true, placeholder: 'https://gotify.example.org' },
      { name: 'token', label: 'Application token', kind: 'secret', required: true },
      { name: 'priority', label: 'Priority', kind: 'number', description: '0–10; empty: by state' }
    ]
  },
  {
    type: 'telegram',
    label: 'Telegram',
    description: 'A Telegram bot sends the message to a chat.',
    fields: [
      { name: 'token', label: 'Bot token', kind: 'secret', required: true, placeholder: '123456789:AAH…' },
      { name: 'chatid', label: 'Chat id', kind: 'text', required: true, placeholder: '-1001234567890 or @channel' },
      {
        name: 'apiurl',
        label: 'Bot API URL',
        kind: 'text',
        placeholder: 'https://api.telegram.org',
        description: 'Empty: https://api.telegram.org'
      }
    ]
  },
  {
    type: 'program',
    label: 'Program',
    description: 'Runs a program (no shell) with the MONIT_* environment, as M/Monit does.',
    fields: [
      { name: 'path', label: 'Program', kind: 'text', required: true, placeholder: '/usr/local/bin/notify' },
      { name: 'arg', label: 'Arguments', kind: 'lines', description: 'One argument per line' },
      { name: 'timeout', label: 'Timeout (seconds)', kind: 'number', initial: '30' }
    ]
  },
  {
    type: 'jabber',
    label: 'Jabber (XMPP)',
    description: 'Sends an XMPP message, as M/Monit does.',
    fields: [
      { name: 'jid', label: 'Account (JID)', kind: 'text', required: true, placeholder: 'overseer@example.org' },
      { name: 'password', label: 'Password', kind: 'secret', required: true },
      { name: 'to', label: 'To', kind: 'lines', required: true, description: 'One JID per line' },
      {
        name: 'host',
        label: 'Server',
        kind: 'text',
        placeholder: 'xmpp.example.org',
        description: "Empty: found from the account's domain"
      },
      { name: 'port', label: 'Port', kind: 'number', description: 'Empty: 5222, or 5223 with TLS from the start' },
      { name: 'security', label: 'Security', kind: 'select', initial: 'starttls', options: SECURITY },
      { name: 'tlsverify', label: "Verify the server's certificate", kind: 'switch', initial: true }
    ]
  },
  {
    type: 'desktop',
    label: 'Desktop',
    description: "The desktop app's native notifications.",
    fields: []
  }
]

export function channelTypeForm(type: string): ChannelTypeForm {
  return CHANNEL_TYPES.find((t) => t.type === type) ?? { type, label: type, description: '', fields: [] }
}
