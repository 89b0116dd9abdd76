// M/Monit's alert rules (rule, rulerow*, actionrow*, mailserver, jabberserver, messageformat) as
// Overseer's alert rules and channels. Per M/Monit rule: its actions become channels (e-mail and Jabber
// with the mail and Jabber server settings, secrets sealed; programs), its conditions one or more rules
// (alert-rule-conditions.ts) sending to them, its repetition their reminder. Channel and rule names
// derive from the M/Monit rule, so a second run finds them and adds nothing. These tables are
// configuration, a few hundred rows at most: read whole.
import { sealSecrets } from '../../alerting/channel-secrets'
import { channelType } from '../../alerting/channels'
import { REMINDER_MAX_MIN } from '../../../shared/api/alert-rules'
import { channelsOf, type ActionRow, type ActionSetting, type ChannelDraft, type ChannelKind } from './alert-actions'
import { ruleFilters, type ConditionRow, type RuleFilter } from './alert-rule-conditions'
import { channelTemplates, type ChannelTemplates, type MessageFormat } from './message-format'
import { forEachPage, numberOf, textOf } from './pages'
import type { SourceRow } from '../../store/mmonit-source/source'
import type { ImportContext, ImportStep, Skipped, StepResult } from './step'

const NAME_MAX = 255
const KIND_LABELS: Record<ChannelKind, string> = { email: 'e-mail', jabber: 'Jabber', program: 'program' }

export const alertRulesStep: ImportStep = {
  name: 'alert rules',
  count: async (source) => ((await source.tables()).has('rule') ? source.count('rule') : 0),
  async run(ctx) {
    if (!(await ctx.source.tables()).has('rule')) return { imported: 0, skipped: [] }
    const read = await readRules(ctx)
    const result: Required<StepResult> = { imported: 0, skipped: [], warnings: [] }
    const names = ruleNames(read.rules)
    for (const rule of read.rules) {
      importRule(ctx, rule, names.get(numberOf(rule.id))!, read, result)
      ctx.progress(result.imported + result.skipped.filter((s) => s.rows !== 0).length)
    }
    result.skipped.push(...read.unused)
    return result
  }
}

/** Everything the rules need, read once. */
interface RuleTables {
  rules: SourceRow[]
  rows: Map<number, ConditionRow[]>
  actions: Map<number, ActionRow[]>
  options: Map<number, string[]>
  setting: ActionSetting
  templates: ChannelTemplates
  /** Servers and formats no rule can use (not the default), reported once. */
  unused: Skipped[]
}

function importRule(ctx: ImportContext, rule: SourceRow, name: string, read: RuleTables, result: Required<StepResult>): void {
  const id = numberOf(rule.id)
  const what = `rule ${id} (${name})`
  const subject = (note: string) => ({ what, why: note, rows: 0 })
  const conditions = ruleFilters(read.rows.get(id) ?? [], numberOf(rule.operator))
  const actions = read.actions.get(id) ?? []
  for (const action of actions) {
    for (const option of read.options.get(action.id) ?? [])
      result.skipped.push(subject(`option ${option} of action ${action.id} has no counterpart here`))
  }
  // Channels grouped by the repetition of their action: each group its own rules, with that reminder.
  const byRepetition = new Map<number, ChannelDraft[]>()
  for (const action of actions) {
    const { channels, notes } = channelsOf(action, read.setting)
    result.skipped.push(...notes.map(subject))
    const reminder = Math.min(Math.max(action.repetition, 0), REMINDER_MAX_MIN)
    byRepetition.set(reminder, [...(byRepetition.get(reminder) ?? []), ...channels])
  }
  const groups = [...byRepetition].filter(([, channels]) => channels.length > 0)
  const why =
    groups.length === 0
      ? 'none of its actions is one Overseer can carry out'
      : conditions.filters.length === 0
        ? conditions.notes.join('; ')
        : undefined
  if (why !== undefined) {
    result.skipped.push({ what, why })
    return
  }
  result.skipped.push(...conditions.notes.map(subject))
  const rules = groups.flatMap(([reminder, channels]) =>
    conditions.filters.map((filter) => ({
      name: truncate(
        [name, filter.label, groups.length > 1 ? (reminder > 0 ? `every ${reminder} min` : 'once') : ''].filter(Boolean).join(' · ')
      ),
      filter,
      reminder,
      channels
    }))
  )
  const created = ctx.target.sql.transaction(() => {
    let made = 0
    const channelIds = new Map<ChannelDraft, number>()
    const kindCount = new Map<ChannelKind, number>()
    for (const draft of groups.flatMap(([, channels]) => channels)) {
      const n = (kindCount.get(draft.kind) ?? 0) + 1
      kindCount.set(draft.kind, n)
      channelIds.set(draft, channelFor(ctx, `${name}: ${KIND_LABELS[draft.kind]}${n > 1 ? ` ${n}` : ''}`, draft, read.templates))
    }
    for (const r of rules) {
      if (ctx.target.alertRules.idOfName(r.name) !== undefined) continue
      ctx.target.alertRules.create(
        ruleValues(
          r.name,
          numberOf(rule.active) !== 0,
          r.filter,
          r.reminder,
          r.channels.map((c) => channelIds.get(c)!)
        ),
        now()
      )
      made++
    }
    return made
  })
  if (created === 0) result.skipped.push({ what, why: 'imported before: its rules exist already' })
  else result.imported++
}

/** The channel named so, made once: a second run finds it (and leaves any change made here since). */
function channelFor(ctx: ImportContext, name: string, draft: ChannelDraft, templates: ChannelTemplates): number {
  const channelName = truncate(name)
  const existing = ctx.target.alertChannels.idOfName(channelName)
  if (existing !== undefined) return existing
  const type = channelType(draft.kind)!
  const texts = draft.kind === 'program' ? { subject: null, body: null } : templates
  return ctx.target.alertChannels.create(
    {
      name: channelName,
      type: draft.kind,
      enabled: true,
      settings: sealSecrets(type, draft.settings, ctx.secrets),
      subject_template: texts.subject,
      body_template: texts.body
    },
    now()
  )
}

function ruleValues(name: string, enabled: boolean, f: RuleFilter, reminderMin: number, channelIds: number[]) {
  return {
    name,
    enabled,
    servicePattern: f.servicePattern,
    eventTypes: f.eventTypes,
    states: f.states,
    heartbeat: f.heartbeat,
    // M/Monit sends each event as it comes: no waiting to group them.
    groupWaitSec: 0,
    reminderMin,
    recovery: f.recovery,
    channelIds,
    hostIds: f.hostIds,
    groupIds: f.groupIds,
    serviceTypes: []
  }
}

/** Each rule's name: its description, made unique with its id when two share one (or it has none). */
function ruleNames(rules: readonly SourceRow[]): Map<number, string> {
  const uses = new Map<string, number>()
  for (const r of rules) uses.set(textOf(r.description).trim(), (uses.get(textOf(r.description).trim()) ?? 0) + 1)
  return new Map(
    rules.map((r) => {
      const description = textOf(r.description).trim()
      const name =
        description === '' ? `M/Monit rule ${r.id}` : uses.get(description)! > 1 ? `${description} (M/Monit rule ${r.id})` : description
      return [numberOf(r.id), truncate(name)]
    })
  )
}

async function readRules(ctx: ImportContext): Promise<RuleTables> {
  const all = (table: string, columns: string[], key: string[]) => readAll(ctx, table, columns, key)
  const rules = await all('rule', ['id', 'description', 'active', 'operator'], ['id'])
  const ruleOfRow = new Map((await all('rulerow', ['id', 'ruleid'], ['id'])).map((r) => [numberOf(r.id), numberOf(r.ruleid)]))
  const conditionRows = new Map<number, ConditionRow>()
  const rowOf = (rulerowid: SourceRow[string]) => {
    const id = numberOf(rulerowid)
    let row = conditionRows.get(id)
    if (!row) conditionRows.set(id, (row = { hostIds: [], groupIds: [], services: [], states: [], events: [] }))
    return row
  }
  const unknown: string[] = []
  for (const r of await all('rulerowhost', ['rulerowid', 'hostid'], ['rulerowid', 'hostid'])) {
    const ours = ctx.ids.hosts.get(numberOf(r.hostid))
    if (ours === undefined) {
      unknown.push(`host ${r.hostid}`)
      rowOf(r.rulerowid).unknown = true
    } else rowOf(r.rulerowid).hostIds.push(ours)
  }
  for (const r of await all('rulerowhostgroup', ['rulerowid', 'hostgroupid'], ['rulerowid', 'hostgroupid'])) {
    const ours = ctx.ids.hostGroups.get(numberOf(r.hostgroupid))
    if (ours === undefined) {
      unknown.push(`host group ${r.hostgroupid}`)
      rowOf(r.rulerowid).unknown = true
    } else rowOf(r.rulerowid).groupIds.push(ours)
  }
  for (const r of await all('rulerowservice', ['rulerowid', 'service_nameid'], ['rulerowid', 'service_nameid'])) {
    rowOf(r.rulerowid).services.push(ctx.ids.names.get(numberOf(r.service_nameid)) ?? '')
  }
  const members = await serviceGroupMembers(ctx)
  for (const r of await all('rulerowservicegroup', ['rulerowid', 'servicegroup_nameid'], ['rulerowid', 'servicegroup_nameid'])) {
    // A service group is per host in M/Monit; a rule names it by name: every service in a group of that name.
    rowOf(r.rulerowid).services.push(...(members.get(numberOf(r.servicegroup_nameid)) ?? []))
  }
  for (const r of await all('rulerowstate', ['rulerowid', 'eventstate'], ['rulerowid', 'eventstate']))
    rowOf(r.rulerowid).states.push(numberOf(r.eventstate))
  for (const r of await all('rulerowevent', ['rulerowid', 'eventid'], ['rulerowid', 'eventid']))
    rowOf(r.rulerowid).events.push(numberOf(r.eventid))

  const rows = new Map<number, ConditionRow[]>()
  // In rulerow order: a rule's "condition n" is its n-th row.
  for (const [rowId, condition] of [...conditionRows].sort(([a], [b]) => a - b)) {
    const ruleId = ruleOfRow.get(rowId)
    if (ruleId !== undefined) rows.set(ruleId, [...(rows.get(ruleId) ?? []), condition])
  }
  const targets = groupBy(await all('actionrowtarget', ['actionrowid', 'target'], ['actionrowid', 'target']), 'actionrowid', (r) =>
    textOf(r.target)
  )
  const options = groupBy(await all('actionrowoption', ['actionrowid', 'name', 'value'], ['actionrowid', 'name']), 'actionrowid', (r) =>
    textOf(r.value) === '' ? '' : `${textOf(r.name)}=${textOf(r.value)}`
  )
  const actions = new Map<number, ActionRow[]>()
  for (const r of await all('actionrow', ['id', 'ruleid', 'action', 'repetition'], ['id'])) {
    const ruleId = numberOf(r.ruleid)
    const action = {
      id: numberOf(r.id),
      action: numberOf(r.action),
      repetition: numberOf(r.repetition),
      targets: targets.get(numberOf(r.id)) ?? []
    }
    actions.set(ruleId, [...(actions.get(ruleId) ?? []), action])
  }
  const unused: Skipped[] = [...new Set(unknown)].map((what) => ({
    what,
    why: 'a rule names it, but it was not imported: a condition naming only such matches nothing',
    rows: 0
  }))
  const mail = defaultOf(
    await all('mailserver', ['id', 'hostname', 'port', 'uname', 'password', 'usessl', 'isdefault'], ['id']),
    'mail server',
    unused
  )
  const jabber = defaultOf(
    await all('jabberserver', ['id', 'hostname', 'port', 'uname', 'password', 'isdefault'], ['id']),
    'Jabber server',
    unused
  )
  const format = defaultOf(await all('messageformat', MESSAGE_FORMAT_COLUMNS, ['id']), 'message format', unused)
  const templates = format ? channelTemplates(messageFormatOf(format)) : { subject: null, body: null, notes: [] }
  unused.push(...templates.notes.map((why) => ({ what: 'message format', why, rows: 0 })))
  const [mmonit] = await all('mmonit', ['programtimeout'], ['programtimeout'])
  return {
    rules,
    rows,
    actions,
    options: new Map([...options].map(([id, list]) => [id, list.filter((o) => o !== '')])),
    setting: {
      mail: mail && {
        hostname: textOf(mail.hostname),
        port: numberOf(mail.port),
        uname: textOf(mail.uname),
        password: textOf(mail.password),
        usessl: numberOf(mail.usessl)
      },
      jabber: jabber && {
        hostname: textOf(jabber.hostname),
        port: numberOf(jabber.port),
        uname: textOf(jabber.uname),
        password: textOf(jabber.password)
      },
      sender: senderOf(format),
      programTimeout: mmonit?.programtimeout == null ? undefined : numberOf(mmonit.programtimeout)
    },
    templates,
    unused
  }
}

const MESSAGE_FORMAT_COLUMNS = [
  'id',
  'sender',
  'subjectsingle',
  'subjectmulti',
  'txtheader',
  'txtbody',
  'txtfooter',
  'htmlheader',
  'htmlbody',
  'htmlfooter',
  'isdefault'
]

function messageFormatOf(row: SourceRow): MessageFormat {
  const text = (c: string) => textOf(row[c] ?? null)
  return {
    sender: text('sender'),
    subjectsingle: text('subjectsingle'),
    subjectmulti: text('subjectmulti'),
    txtheader: text('txtheader'),
    txtbody: text('txtbody'),
    txtfooter: text('txtfooter'),
    htmlheader: text('htmlheader'),
    htmlbody: text('htmlbody'),
    htmlfooter: text('htmlfooter')
  }
}

/** M/Monit's sender, or Monit's own default when it has none. */
function senderOf(format: SourceRow | undefined): string {
  const sender = format ? textOf(format.sender).trim() : ''
  return sender === '' ? 'monit@localhost' : sender
}

/** The row marked default (else the first); the others are listed as not imported. */
function defaultOf(rows: SourceRow[], what: string, unused: Skipped[]): SourceRow | undefined {
  const chosen = rows.find((r) => numberOf(r.isdefault) !== 0) ?? rows[0]
  for (const r of rows) {
    if (r !== chosen)
      unused.push({
        what: `${what} ${r.id}`,
        why: `only the default ${what} is imported (${chosen.id}): Overseer's channels each carry one`,
        rows: 0
      })
  }
  return chosen
}

/** Service names by service-group name id, across every host's groups of that name. */
async function serviceGroupMembers(ctx: ImportContext): Promise<Map<number, string[]>> {
  const groupName = new Map((await readAll(ctx, 'servicegroup', ['id', 'nameid'], ['id'])).map((g) => [numberOf(g.id), numberOf(g.nameid)]))
  const members = new Map<number, Set<string>>()
  for (const m of await readAll(ctx, 'groupedservices', ['servicegroupid', 'service_nameid'], ['servicegroupid', 'service_nameid'])) {
    const nameId = groupName.get(numberOf(m.servicegroupid))
    const service = ctx.ids.names.get(numberOf(m.service_nameid))
    if (nameId === undefined || service === undefined) continue
    if (!members.has(nameId)) members.set(nameId, new Set())
    members.get(nameId)!.add(service)
  }
  return new Map([...members].map(([id, set]) => [id, [...set]]))
}

/** A whole table ([] when this M/Monit has none); a column it lacks reads as null. */
async function readAll(ctx: ImportContext, table: string, columns: string[], key: string[]): Promise<SourceRow[]> {
  const { source } = ctx
  if (!(await source.tables()).has(table)) return []
  const present = await source.columns(table)
  // A table without the key it is read by (mmonit.programtimeout before schema 26) has nothing to give.
  if (!key.every((c) => present.has(c))) return []
  const rows: SourceRow[] = []
  await forEachPage(source, { table, columns: columns.filter((c) => present.has(c)), key }, ctx.options.batchRows, (page) => {
    rows.push(...page)
  })
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])))
}

function groupBy<T>(rows: SourceRow[], column: string, value: (row: SourceRow) => T): Map<number, T[]> {
  const groups = new Map<number, T[]>()
  for (const r of rows) {
    const id = numberOf(r[column])
    groups.set(id, [...(groups.get(id) ?? []), value(r)])
  }
  return groups
}

const truncate = (name: string) => (name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name)
const now = () => Math.floor(Date.now() / 1000)
