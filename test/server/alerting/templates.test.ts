// Notification text from the default and custom templates: words, time zones, the HTML part.
import { describe, expect, it } from 'vitest'
import type { AlertItem, AlertNotification } from '../../../src/shared/api/alerts'
import { compileTemplate, renderMessage, TemplateError } from '../../../src/server/alerting/templates'

const alert = (host: string, service: string): AlertItem => ({
  hostid: 1,
  host,
  serviceid: 2,
  service,
  servicetype: 3,
  event: 'Nonexist',
  state: 'failed',
  message: 'process is not running <&>',
  date: 1_800_000_000,
  link: 'http://overseer.test/#/events/7'
})
const one: AlertNotification = {
  id: 'n-1',
  summary: 'sleeper failed on web-1',
  link: 'http://overseer.test/#/events/7',
  alerts: [alert('web-1', 'sleeper')]
}

const oslo = { timeZone: 'Europe/Oslo', consoleUrl: 'http://overseer.test/', failing: [] }

describe('templates', () => {
  it('says the defaults in words, in the zone given, with a link to the service', () => {
    const m = renderMessage({ subject: null, body: null }, one, oslo)
    expect(m.subject).toBe('[Overseer] process sleeper does not exist on web-1')
    // 2027-01-15T08:00:00Z is 09:00 in Oslo (CET)
    expect(m.body).toContain('* Fri, 15 Jan 2027, 09:00:00 CET: process sleeper does not exist on web-1')
    expect(m.body).toContain('process is not running <&>')
    expect(m.body).toContain('http://overseer.test/#/hosts/1/services/sleeper')
    expect(m.body).toContain('Times in Europe/Oslo. Overseer: http://overseer.test/#/events/7')
    expect(m.body).not.toContain('more:')
    expect(m.body).not.toContain('Also failing')
  })

  it('words a recovery, a change and a silent host as Monit names them', () => {
    const words = (a: Partial<AlertItem>) =>
      renderMessage({ subject: null, body: null }, { ...one, alerts: [{ ...alert('web-1', 'sleeper'), ...a }] }, oslo).subject
    expect(words({ state: 'succeeded' })).toBe('[Overseer] Recovered: process sleeper exists on web-1')
    expect(words({ event: 'Checksum', state: 'changed', servicetype: 2, service: 'passwd' })).toBe(
      '[Overseer] file passwd checksum changed on web-1'
    )
    expect(words({ event: 'Connection', servicetype: 4, service: 'db' })).toBe('[Overseer] remote host db connection failed on web-1')
    expect(words({ event: 'Heartbeat', serviceid: null, service: 'Monit' })).toBe('[Overseer] web-1 stopped reporting')
    const reminder = { ...one, summary: 'Reminder: sleeper failed on web-1' }
    expect(renderMessage({ subject: null, body: null }, reminder, oslo).subject).toBe(
      '[Overseer] Reminder: process sleeper does not exist on web-1'
    )
  })

  it("lists the hosts' other failures, and an HTML part with the same words, escaped", () => {
    const failing = [{ ...alert('web-1', 'cron'), event: 'Status', servicetype: 7, date: 1_799_990_000 }]
    const m = renderMessage({ subject: null, body: null }, one, { ...oslo, failing })
    expect(m.body).toContain('Also failing now:\n* program cron status failed on web-1, since Fri, 15 Jan 2027, 06:13:20 CET')
    expect(m.html).toContain('<h1 style="font-size:18px;margin:0 0 12px">process sleeper does not exist on web-1</h1>')
    expect(m.html).toContain('process is not running &lt;&amp;&gt;')
    expect(m.html).toContain(
      '<a href="http://overseer.test/#/hosts/1/services/cron" style="color:#1864ab">program cron status failed on web-1</a>'
    )
    expect(m.html).toContain('Times in Europe/Oslo.')
  })

  it('keeps custom templates working: the first alert at the top level, the date in ISO 8601, no HTML part', () => {
    const m = renderMessage(
      { subject: '{{host}}/{{service}} is {{state}}', body: '{{message}} ({{unixdate}}, {{date}}) {{count}}' },
      one,
      oslo
    )
    expect(m).toEqual({ subject: 'web-1/sleeper is failed', body: 'process is not running <&> (1800000000, 2027-01-15T08:00:00Z) 1' })
    const words = renderMessage({ subject: '{{what}}', body: '{{when}} {{servicelink}} {{timezone}}' }, one, oslo)
    expect(words).toEqual({
      subject: 'process sleeper does not exist',
      body: 'Fri, 15 Jan 2027, 09:00:00 CET http://overseer.test/#/hosts/1/services/sleeper Europe/Oslo'
    })
  })

  it('lists at most 50 alerts of a storm and says how many more', () => {
    const storm = {
      ...one,
      summary: '120 services failed on 120 hosts',
      alerts: Array.from({ length: 120 }, (_, i) => alert(`h${i}`, 's'))
    }
    const m = renderMessage({ subject: null, body: null }, storm, oslo)
    expect(m.subject).toBe('[Overseer] 120 services failed on 120 hosts')
    expect(m.body.match(/^\* /gm)).toHaveLength(50)
    expect(m.body).toContain('… and 70 more')
  })

  it('refuses a template that is not valid Handlebars, in its words', () => {
    expect(() => compileTemplate('{{#each alerts}}unclosed')).toThrow(TemplateError)
    expect(() => compileTemplate('{{#each alerts}}unclosed')).toThrow(/^invalid template: Parse error/)
  })
})
