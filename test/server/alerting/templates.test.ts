// Notification text from the default and custom templates.
import { describe, expect, it } from 'vitest'
import type { AlertNotification } from '../../../src/shared/api/alerts'
import { compileTemplate, renderMessage, TemplateError } from '../../../src/server/alerting/templates'

const alert = (host: string, service: string) => ({
  hostid: 1,
  host,
  serviceid: 2,
  service,
  servicetype: 3,
  event: 'Nonexist',
  state: 'failed' as const,
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

describe('templates', () => {
  it('renders the defaults as text, nothing escaped, dates in ISO 8601', () => {
    const m = renderMessage({ subject: null, body: null }, one)
    expect(m.subject).toBe('[Overseer] sleeper failed on web-1')
    expect(m.body).toContain('* web-1 · sleeper: Nonexist failed at 2027-01-15T08:00:00Z')
    expect(m.body).toContain('process is not running <&>')
    expect(m.body).toContain('http://overseer.test/#/events/7')
    expect(m.body).not.toContain('more:')
  })

  it('gives custom templates the first alert at the top level', () => {
    const m = renderMessage({ subject: '{{host}}/{{service}} is {{state}}', body: '{{message}} ({{unixdate}}) {{count}}' }, one)
    expect(m).toEqual({ subject: 'web-1/sleeper is failed', body: 'process is not running <&> (1800000000) 1' })
  })

  it('lists at most 50 alerts of a storm and says how many more', () => {
    const storm = {
      ...one,
      summary: '120 services failed on 120 hosts',
      alerts: Array.from({ length: 120 }, (_, i) => alert(`h${i}`, 's'))
    }
    const body = renderMessage({ subject: null, body: null }, storm).body
    expect(body.match(/^\* /gm)).toHaveLength(50)
    expect(body).toContain('… and 70 more')
  })

  it('refuses a template that is not valid Handlebars, in its words', () => {
    expect(() => compileTemplate('{{#each alerts}}unclosed')).toThrow(TemplateError)
    expect(() => compileTemplate('{{#each alerts}}unclosed')).toThrow(/^invalid template: Parse error/)
  })
})
