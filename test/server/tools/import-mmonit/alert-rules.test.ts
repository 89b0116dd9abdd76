// M/Monit's alert rules imported (tools/import-mmonit/alert-rules.ts) from a generated M/Monit database
// holding rules (test/support/mmonit-rules.ts) into a real store: the rules, their channels with the
// mail and Jabber servers' settings sealed, the templates rendered, and the report of what was left out.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../../../src/server/auth/secret-box'
import { openSettings } from '../../../../src/server/alerting/channel-secrets'
import { channelType } from '../../../../src/server/alerting/channels'
import { renderMessage } from '../../../../src/server/alerting/templates'
import { Store } from '../../../../src/server/store/store'
import { importMMonit, type ImportReport } from '../../../../src/server/tools/import-mmonit/import-database'
import type { AlertItem } from '../../../../src/shared/api/alerts'
import { createMMonitSqlite, SMALL_SHAPE } from '../../../support/mmonit-database'
import { addMMonitRules, JABBER_PASSWORD, MAIL_PASSWORD } from '../../../support/mmonit-rules'
import { dropDatabaseOf, storeLocation } from '../../../support/test-database'

let root: string
let target: { dir: string; to: string; keyFile: string }
let report: ImportReport
let store: Store
let secrets: SecretBox

const importOnce = () =>
  importMMonit({
    from: `sqlite:${join(root, 'mmonit.db')}`,
    to: target.to,
    keyFile: target.keyFile,
    history: false,
    dryRun: false,
    merge: false
  })

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'overseer-mmonit-rules-'))
  createMMonitSqlite(join(root, 'mmonit.db'), SMALL_SHAPE)
  addMMonitRules(join(root, 'mmonit.db'))
  const dir = mkdtempSync(join(root, 'target-'))
  target = { dir, to: storeLocation(dir, 'overseer.sqlite'), keyFile: join(dir, 'secret.key') }
  report = await importOnce()
  store = new Store(target.to)
  secrets = SecretBox.fromKeyFile(target.keyFile)
})

afterAll(() => {
  store?.close()
  dropDatabaseOf(target.dir)
  rmSync(root, { recursive: true, force: true })
})

const step = () => report.steps.find((s) => s.name === 'alert rules')!
const rule = (name: string) => store.alertRules.list().find((r) => r.name === name)
const channel = (name: string) => store.alertChannels.list().find((c) => c.name === name)!
const channelId = (name: string) => channel(name).id
const groupId = (name: string) => store.sql.rows<{ id: number }>('SELECT id FROM host_group WHERE name = ?', [name])[0].id
const hostId = (agent: number) =>
  store.sql.rows<{ id: number }>('SELECT id FROM host WHERE agent_id = ?', [`agent-${String(agent).padStart(6, '0')}-mmonit`])[0].id

describe('import-mmonit: alert rules', () => {
  it('imports the rules Overseer can carry out, and says why each other one was left out', () => {
    expect(step()).toMatchObject({ expected: 6, imported: 3 })
    const whole = step().skipped.filter((s) => s.rows === undefined)
    expect(whole).toEqual([
      { what: 'rule 3 (Restart on failure)', why: 'none of its actions is one Overseer can carry out' },
      {
        what: 'rule 4 (Never)',
        why: 'its conditions can never all hold (no host, service, state or event type is common to them): nothing to import'
      },
      { what: 'rule 5 (Bad target)', why: 'none of its actions is one Overseer can carry out' }
    ])
    const notes = step()
      .skipped.filter((s) => s.rows === 0)
      .map((s) => `${s.what}: ${s.why}`)
    expect(notes).toEqual(
      expect.arrayContaining([
        'rule 1 (Web failures): option nice=10 of action 12 has no counterpart here',
        "rule 3 (Restart on failure): action 31 (code 3) is read as a service action: Overseer's alert rules only notify",
        expect.stringMatching(
          /^rule 5 \(Bad target\): action 51 \(email to not an address\): to "not an address": expected an e-mail address/
        ),
        "mail server 1: only the default mail server is imported (2): Overseer's channels each carry one",
        'message format: $ACTION has no counterpart in an Overseer notification: left out of the template',
        'message format: the HTML template is not imported: Overseer sends its messages as plain text (the text template is)'
      ])
    )
  })

  it('maps "all of" conditions to one rule per repetition, with the mail server and the program as channels', () => {
    const mail = channel('Web failures: e-mail')
    const settings = openSettings(channelType('email')!, mail.settings, secrets)
    expect(settings).toEqual({
      smtphost: 'smtp.example.net',
      smtpport: 587,
      smtpsecurity: 'starttls',
      smtptlsverify: true,
      smtpuser: 'mailer',
      smtppassword: MAIL_PASSWORD,
      from: 'M/Monit <mmonit@example.net>',
      // Targets in key order (actionrowid, target): M/Monit keeps no other.
      to: ['Web team <web@example.net>', 'ops@example.net'],
      userid: []
    })
    expect(mail.settings).not.toContain(MAIL_PASSWORD)
    const program = openSettings(channelType('program')!, channel('Web failures: program').settings, secrets)
    expect(program).toEqual({ path: '/usr/local/bin/page', arg: ['--urgent', 'web'], timeout: 30 })

    const common = {
      enabled: true,
      groupIds: [groupId('web servers')],
      hostIds: [],
      servicePattern: '',
      states: 1,
      recovery: false,
      heartbeat: true
    }
    expect(rule('Web failures · every 30 min')).toMatchObject({ ...common, reminderMin: 30, channelIds: [mail.id] })
    expect(rule('Web failures · once')).toMatchObject({ ...common, reminderMin: 0, channelIds: [channelId('Web failures: program')] })
  })

  it('maps "any of" conditions to one rule each, a service group to its services, Jabber with its server', () => {
    const jabber = channel('Database services: Jabber')
    expect(openSettings(channelType('jabber')!, jabber.settings, secrets)).toMatchObject({
      jid: 'mmonit@xmpp.example.org',
      password: JABBER_PASSWORD,
      to: ['oncall@example.org'],
      host: 'xmpp.example.org',
      port: 5222
    })
    expect(jabber.settings).not.toContain(JABBER_PASSWORD)
    const every = { channelIds: [jabber.id], states: 7, recovery: true, eventTypes: 0, groupIds: [] }
    expect(rule('Database services · condition 1, service-1')).toMatchObject({
      ...every,
      servicePattern: 'service-1',
      hostIds: [],
      heartbeat: false
    })
    expect(rule('Database services · condition 1, service-3')).toMatchObject({ ...every, servicePattern: 'service-3', hostIds: [] })
    expect(rule('Database services · condition 2')).toMatchObject({ ...every, servicePattern: '', hostIds: [hostId(2)], heartbeat: true })
    expect(store.alertRules.list().filter((r) => r.name.startsWith('Database services'))).toHaveLength(3)
  })

  it('keeps an inactive rule disabled, with its event types and states', () => {
    expect(rule('Timeouts')).toMatchObject({ enabled: false, eventTypes: 2 | 1048576, states: 1 | 4, heartbeat: true, recovery: true })
  })

  it("turns M/Monit's message format into templates that render its placeholders", () => {
    const mail = channel('Web failures: e-mail')
    const alert = (host: string, service: string): AlertItem => ({
      hostid: 1,
      host,
      serviceid: 1,
      service,
      servicetype: 3,
      event: 'Nonexist',
      state: 'failed',
      message: `${service} is not running`,
      date: 1_767_225_600,
      link: 'http://overseer/events'
    })
    const templates = { subject: mail.subject_template, body: mail.body_template }
    const one = renderMessage(templates, { id: 'n1', summary: 's', link: 'l', alerts: [alert('web-1', 'nginx')] })
    expect(one).toEqual({
      subject: 'web-1: nginx Nonexist',
      body: 'Events:\n2026-01-01T00:00:00Z web-1 nginx: nginx is not running ()\n-- M/Monit'
    })
    const two = renderMessage(templates, { id: 'n2', summary: 's', link: 'l', alerts: [alert('web-1', 'nginx'), alert('web-2', 'mysql')] })
    expect(two.subject).toBe('2 events {{not a tag}}')
    expect(two.body).toContain('web-2 mysql: mysql is not running')
  })

  it('adds nothing when run again', async () => {
    const before = { rules: store.alertRules.list().length, channels: store.alertChannels.list().length }
    const again = await importOnce()
    expect(again.steps.find((s) => s.name === 'alert rules')).toMatchObject({ expected: 6, imported: 0 })
    expect({ rules: store.alertRules.list().length, channels: store.alertChannels.list().length }).toEqual(before)
    expect(before).toEqual({ rules: 6, channels: 4 })
  })
})
