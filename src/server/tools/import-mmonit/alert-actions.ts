// What an M/Monit rule does (actionrow, its targets, and the mail and Jabber servers) as Overseer alert
// channels: e-mail and Jabber channels carrying the server settings, program channels. Each channel's
// settings go through its type's own schema, as the API's would.
//
// actionrow.action codes. The spec names the column, not its values. Read here as the three kinds of
// M/Monit's rule editor lists, in its order and counted from 0 as M/Monit's C enums are: 0 e-mail,
// 1 Jabber message, 2 program; any other code a service action (start, stop, restart, monitor,
// unmonitor), which Overseer's rules do not run. A target that does not fit its kind (no address for
// e-mail, no absolute path for a program) is reported, never sent to: that is how a wrong reading
// shows. docs/migrating-from-mmonit.md says the same.
import { channelType } from '../../alerting/channels'
import { PROGRAM_TIMEOUT } from '../../../shared/alert-channel-settings/program'

const ACTION_KINDS: Record<number, ChannelKind> = { 0: 'email', 1: 'jabber', 2: 'program' }

export type ChannelKind = 'email' | 'jabber' | 'program'

export interface ActionRow {
  id: number
  action: number
  /** Minutes between repeated notifications while the error lasts; 0: none. */
  repetition: number
  targets: string[]
}

export interface MailServer {
  hostname: string
  port: number
  uname: string
  password: string
  usessl: number
}

export interface JabberServer {
  hostname: string
  port: number
  uname: string
  password: string
}

/** What the channels share: the servers M/Monit sends through, its sender and its program timeout. */
export interface ActionSetting {
  mail?: MailServer
  jabber?: JabberServer
  sender: string
  /** mmonit.programtimeout (schema 26), seconds. */
  programTimeout?: number
}

/** A channel to create: its type and its settings as the type's schema parsed them. */
export interface ChannelDraft {
  kind: ChannelKind
  settings: Record<string, unknown>
}

/** The channels an action row comes to, and what of it was left out. */
export function channelsOf(row: ActionRow, setting: ActionSetting): { channels: ChannelDraft[]; notes: string[] } {
  const kind = ACTION_KINDS[row.action]
  if (kind === undefined) {
    return {
      channels: [],
      notes: [`action ${row.id} (code ${row.action}) is read as a service action: Overseer's alert rules only notify`]
    }
  }
  const targets = row.targets.map((t) => t.trim()).filter((t) => t !== '')
  if (targets.length === 0) return { channels: [], notes: [`action ${row.id} (${kind}) has no target`] }
  if (kind === 'program') return programChannels(row, targets, setting)
  const settings = kind === 'email' ? mailSettings(targets, setting) : jabberSettings(targets, setting)
  if (typeof settings === 'string') return { channels: [], notes: [`action ${row.id} (${kind}): ${settings}`] }
  const parsed = parse(kind, settings)
  return typeof parsed === 'string'
    ? { channels: [], notes: [`action ${row.id} (${kind} to ${targets.join(', ')}): ${parsed}`] }
    : { channels: [{ kind, settings: parsed }], notes: [] }
}

function mailSettings(to: string[], { mail, sender }: ActionSetting): Record<string, unknown> | string {
  if (!mail) return 'M/Monit has no mail server to send through'
  const security = mail.usessl ? (mail.port === 465 ? 'tls' : 'starttls') : 'none'
  return {
    smtphost: mail.hostname,
    ...(mail.port > 0 ? { smtpport: mail.port } : {}),
    smtpsecurity: security,
    ...(mail.uname ? { smtpuser: mail.uname, smtppassword: mail.password } : {}),
    from: sender,
    to
  }
}

function jabberSettings(to: string[], { jabber }: ActionSetting): Record<string, unknown> | string {
  if (!jabber) return 'M/Monit has no Jabber server to send through'
  // M/Monit keeps the account's name and its server apart; our sender is the full address.
  const jid = jabber.uname.includes('@') ? jabber.uname : `${jabber.uname}@${jabber.hostname}`
  return { jid, password: jabber.password, to, host: jabber.hostname, ...(jabber.port > 0 ? { port: jabber.port } : {}) }
}

/** One channel per program: M/Monit's target is the program's command line, its words the arguments. */
function programChannels(
  row: ActionRow,
  targets: string[],
  { programTimeout }: ActionSetting
): { channels: ChannelDraft[]; notes: string[] } {
  const channels: ChannelDraft[] = []
  const notes: string[] = []
  const timeout = programTimeout ? Math.min(Math.max(programTimeout, PROGRAM_TIMEOUT.min), PROGRAM_TIMEOUT.max) : undefined
  if (programTimeout && timeout !== programTimeout)
    notes.push(`M/Monit's program timeout of ${programTimeout} s is ${timeout} s here (Overseer's range)`)
  for (const target of targets) {
    const [path, ...arg] = target.split(/\s+/)
    const parsed = parse('program', { path, arg, ...(timeout ? { timeout } : {}) })
    if (typeof parsed === 'string') notes.push(`action ${row.id} (program ${target}): ${parsed}`)
    else channels.push({ kind: 'program', settings: parsed })
  }
  return { channels, notes }
}

/** The settings as the channel type's schema reads them, or its first complaint. */
function parse(kind: ChannelKind, settings: Record<string, unknown>): Record<string, unknown> | string {
  const result = channelType(kind)!.settings.safeParse(settings)
  if (result.success) return result.data as Record<string, unknown>
  const issue = result.error.issues[0]
  return `${issue.path.join('.') || 'settings'} ${issue.message}`
}
