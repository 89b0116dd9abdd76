// Subject and body of a notification for people (issue 13), from the channel's own templates or the
// defaults below, rendered by Handlebars. Text, not HTML: nothing is escaped. Every template sees the
// notification (summary, link, alerts) and, for the first alert, its fields at the top level (host,
// service, state, event, message, date, link), so a one-alert template needs no loop.
import { createRequire } from 'node:module'
import type Handlebars from 'handlebars'
import type { AlertItem, AlertNotification } from '../../shared/api/alerts'
import type { RenderedMessage } from './channel'

export const DEFAULT_SUBJECT = '[Overseer] {{summary}}'
export const DEFAULT_BODY = `{{summary}}

{{#each alerts}}
* {{host}} · {{service}}: {{event}} {{state}} at {{date}}
  {{message}}
  {{link}}
{{/each}}
{{#if more}}
… and {{more}} more: {{link}}
{{/if}}
`

/** Alerts listed one by one at most; a storm's notification says how many more. */
const LISTED_ALERTS = 50

export class TemplateError extends Error {}

let engine: typeof Handlebars | undefined
/** Loaded on first use: a server that renders no alert does not hold Handlebars in memory. */
function handlebars(): typeof Handlebars {
  engine ??= (createRequire(__filename)('handlebars') as typeof Handlebars).create()
  return engine
}
const cache = new Map<string, HandlebarsTemplateDelegate>()

/** The compiled template; a TemplateError with Handlebars' own words when the source is not valid. */
export function compileTemplate(source: string): HandlebarsTemplateDelegate {
  let template = cache.get(source)
  if (template) return template
  try {
    template = handlebars().compile(source, { noEscape: true, strict: false })
    template({}) // compile() is lazy: syntax errors show on first use
  } catch (err) {
    throw new TemplateError(`invalid template: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (cache.size >= 256) cache.clear()
  cache.set(source, template)
  return template
}

export function renderMessage(
  templates: { subject: string | null; body: string | null },
  notification: AlertNotification
): RenderedMessage {
  const view = viewOf(notification)
  return {
    subject: compileTemplate(templates.subject ?? DEFAULT_SUBJECT)(view).trim(),
    body: compileTemplate(templates.body ?? DEFAULT_BODY)(view)
  }
}

function viewOf(notification: AlertNotification) {
  const alerts = notification.alerts.slice(0, LISTED_ALERTS).map(dated)
  return {
    ...(alerts[0] ?? {}),
    summary: notification.summary,
    link: notification.link,
    id: notification.id,
    alerts,
    count: notification.alerts.length,
    more: Math.max(0, notification.alerts.length - LISTED_ALERTS)
  }
}

/** Dates as people read them (ISO 8601, UTC); `unixdate` keeps the number. */
function dated(alert: AlertItem) {
  return { ...alert, unixdate: alert.date, date: new Date(alert.date * 1000).toISOString().replace('.000Z', 'Z') }
}
