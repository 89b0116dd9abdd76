// The channel form's checks before sending: every invalid field at once, each with the reason the
// server would give (the same rules, src/shared/alert-channel-settings), and stored secrets left empty
// count as kept.
import { describe, expect, it } from 'vitest'
import { channelTypes } from '../../../../src/server/alerting/channels'
import { readChannelSettings } from '../../../../src/server/api/alert-channel-settings'
import { HttpError } from '../../../../src/server/http/errors'
import { channelFormErrors, type ChannelDraft } from '../../../../src/renderer/screens/alerts/channel-rules'
import { channelTypeForm } from '../../../../src/renderer/screens/alerts/channel-types'
import { fieldValues, settingsArguments, type FieldValues } from '../../../../src/renderer/screens/alerts/channel-values'
import { CHANNEL_SETTINGS } from '../../../../src/shared/alert-channel-settings'

const draft = (type: string, settings: FieldValues, name = 'ops'): ChannelDraft => ({
  type,
  name,
  enabled: true,
  subject: '',
  body: '',
  settings: { ...fieldValues(channelTypeForm(type)), ...settings }
})

/** The server's reading of the form's values, sent as the console sends them (no empty secret). */
function serverSettings(type: string, settings: FieldValues) {
  const raw = new Map<string, string[]>()
  for (const [name, value] of Object.entries(settingsArguments(channelTypeForm(type), settings))) {
    if (value !== '') raw.set(name, (Array.isArray(value) ? value : [value]).map(String))
  }
  return readChannelSettings(
    channelTypes.find((t) => t.type === type)!,
    raw
  )
}

function serverError(type: string, settings: FieldValues): string | undefined {
  try {
    serverSettings(type, settings)
    return undefined
  } catch (err) {
    if (err instanceof HttpError) return err.message
    throw err
  }
}

describe('channel form rules', () => {
  it('are the rules the server parses each type with', () => {
    for (const type of channelTypes) expect(type.settings, type.type).toBe(CHANNEL_SETTINGS[type.type])
  })

  it('e-mail: every invalid field at once, with its reason', () => {
    const settings = { smtphost: 'smtp host', smtpport: '70000', from: 'overseer', smtpuser: 'alert' }
    expect(channelFormErrors(draft('email', settings, ' '))).toEqual({
      name: 'must not be empty',
      'settings.smtphost': 'expected a host name or IP address',
      'settings.smtpport': 'expected a port number from 1 to 65535',
      'settings.from': 'expected an e-mail address such as ops@example.com or "Ops <ops@example.com>"',
      'settings.to': 'at least one recipient is required (to, userid or both)',
      'settings.smtppassword': 'is required with smtpuser'
    })
    // The server names the first of them, in the same words.
    expect(serverError('email', draft('email', settings).settings)).toBe("invalid argument 'smtphost': expected a host name or IP address")
  })

  it('e-mail: a bad recipient among several is named; good ones pass', () => {
    expect(
      channelFormErrors(draft('email', { smtphost: 'smtp.example.org', from: 'o@example.org', to: 'a@example.org\nnot an address' }))
    ).toEqual({ 'settings.to': '"not an address": expected an e-mail address such as ops@example.com or "Ops <ops@example.com>"' })
    expect(
      channelFormErrors(draft('email', { smtphost: 'smtp.example.org', from: 'o@example.org', to: 'a@example.org\nb@example.org' }))
    ).toEqual({})
  })

  it('webhook: the URL and a bad header line at once; valid ones pass', () => {
    const settings = { url: 'ftp://example.org', header: 'X-Ok: 1\nContent-Type: text/plain' }
    expect(channelFormErrors(draft('webhook', settings))).toEqual({
      'settings.url': 'url must be an http:// or https:// URL',
      'settings.header': 'header "Content-Type" is set by Overseer and cannot be replaced'
    })
    expect(serverError('webhook', draft('webhook', settings).settings)).toBe(
      "invalid argument 'url': url must be an http:// or https:// URL"
    )
    expect(channelFormErrors(draft('webhook', { url: 'https://example.org/hook', header: 'X-Ok: 1' }))).toEqual({})
  })

  it('a required secret: missing on a new channel, kept when one is stored', () => {
    const telegram = { chatid: '@ops_room' }
    expect(channelFormErrors(draft('telegram', telegram))).toEqual({ 'settings.token': 'is required' })
    expect(serverError('telegram', draft('telegram', telegram).settings)).toBe("invalid argument 'token': is required")
    expect(channelFormErrors(draft('telegram', telegram), { token: true })).toEqual({})
    expect(channelFormErrors(draft('telegram', { ...telegram, token: 'not a token' }), { token: true })).toEqual({
      'settings.token': 'token must be a bot token as BotFather gives it, like 123456789:AAH…'
    })
  })

  it('a stored secret counts in the checks across settings', () => {
    const email = { smtphost: 'smtp.example.org', from: 'o@example.org', to: 'a@example.org' }
    expect(channelFormErrors(draft('email', { ...email, smtpuser: 'alert' }), { smtppassword: true })).toEqual({})
    expect(channelFormErrors(draft('email', email), { smtppassword: true })).toEqual({
      'settings.smtpuser': 'is required with smtppassword'
    })
  })

  it('other types: their own rules, each field named', () => {
    expect(channelFormErrors(draft('ntfy', { url: 'mailto:x', topic: 'a b', priority: '9' }))).toEqual({
      'settings.url': 'url must be an http:// or https:// URL',
      'settings.topic': 'topic must be 1–64 letters, digits, "_" or "-"',
      'settings.priority': 'priority must be 1–5 or min, low, default, high, urgent'
    })
    expect(channelFormErrors(draft('program', { path: 'notify', timeout: '0' }))).toEqual({
      'settings.path': 'expected the absolute path of an executable, such as /usr/local/bin/notify',
      'settings.timeout': 'expected a number of seconds from 1 to 600'
    })
    expect(channelFormErrors(draft('jabber', { jid: 'overseer', to: 'ops@example.org/phone' }))).toEqual({
      'settings.jid': 'expected the sender as a bare JID such as user@example.org',
      'settings.password': 'is required',
      'settings.to': 'expected a recipient as a bare JID such as user@example.org'
    })
    expect(channelFormErrors(draft('desktop', {}))).toEqual({})
  })
})

describe('what the console sends, the server takes', () => {
  // Each type's required settings; every other input as a new channel's form starts it (empty or default).
  const required: Record<string, FieldValues> = {
    email: { smtphost: 'smtp.example.org', from: 'o@example.org', to: 'ops@example.org' },
    webhook: { url: 'https://example.org/hook' },
    slack: { url: 'https://hooks.slack.com/services/T/B/x' },
    discord: { url: 'https://discord.com/api/webhooks/1/x' },
    ntfy: { topic: 'ops' },
    gotify: { url: 'https://gotify.example.org', token: 'AbC.123' },
    telegram: { token: '123456789:AAH-x', chatid: '@ops_room' },
    program: { path: '/usr/local/bin/notify' },
    jabber: { jid: 'overseer@example.org', password: 'pw', to: 'ops@example.org' },
    desktop: {}
  }
  for (const type of channelTypes) {
    it(`${type.type}: a new channel with only its required settings`, () => {
      const settings = draft(type.type, required[type.type]).settings
      expect(channelFormErrors(draft(type.type, settings))).toEqual({})
      expect(serverError(type.type, settings)).toBeUndefined()
    })
  }

  it('every line of a list: e-mail recipients and users, program arguments', () => {
    const email = draft('email', {
      smtphost: 'smtp.example.org',
      from: 'o@example.org',
      to: 'a@example.org\nb@example.org',
      userid: ['3', '5']
    })
    expect(serverSettings('email', email.settings)).toMatchObject({ to: ['a@example.org', 'b@example.org'], userid: [3, 5] })
    const program = draft('program', { path: '/usr/local/bin/notify', arg: '--to\nops' })
    expect(serverSettings('program', program.settings)).toMatchObject({ arg: ['--to', 'ops'] })
  })
})
