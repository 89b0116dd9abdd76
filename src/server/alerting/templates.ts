// Subject and bodies of a notification for people (issues 13 and 28), from the channel's own templates or
// the defaults below, rendered by Handlebars. The subject and the text body are text (nothing escaped);
// with the default body, e-mail also gets an HTML part (escaped) with the same words and a status table.
// Every template sees the notification (summary, link, alerts), for the first alert its fields at the top
// level (so a one-alert template needs no loop), the words of each alert (`what`, `sentence`, `headline`), times in
// the recipient's zone (`when`), a link to each service's page (`servicelink`), and the hosts' other
// failures at the time of sending (`failing`). docs/alerting.md lists them all.
import { createRequire } from 'node:module'
import type Handlebars from 'handlebars'
import type { AlertItem, AlertNotification } from '../../shared/api/alerts'
import { absoluteLink } from '../domain/alert-delivery'
import { alertHeadline, alertSentence, describeAlert, isMonitEvent, REMINDER_PREFIX } from '../domain/alert-words'
import { formatWhen, serverTimeZone } from './alert-time'
import type { RenderedMessage } from './channel'

export const DEFAULT_SUBJECT = '[Overseer] {{headline}}'
export const DEFAULT_BODY = `{{headline}}

{{#each alerts}}
* {{when}}: {{headline}}
  {{message}}
  {{servicelink}}
{{/each}}
{{#if more}}
… and {{more}} more: {{link}}
{{/if}}
{{#if failing}}

Also failing now:
{{#each failing}}
* {{sentence}}, since {{when}}
{{/each}}
{{#if failingmore}}
… and {{failingmore}} more
{{/if}}
{{/if}}

Times in {{timezone}}. Overseer: {{link}}
`

/** The HTML part of an e-mail sent with the default body: the same words, alerts as a small status table. */
const HTML_BODY = `<!DOCTYPE html>
<html><body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;color:#1a1b1e;background:#ffffff">
<h1 style="font-size:18px;margin:0 0 12px">{{headline}}</h1>
<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;font-size:14px">
<tr style="text-align:left;background:#f1f3f5"><th>State</th><th>What</th><th>When</th><th>Monit says</th></tr>
{{#each alerts}}
<tr style="border-top:1px solid #dee2e6;vertical-align:top"><td style="color:{{color}};font-weight:bold">{{statelabel}}</td><td><a href="{{servicelink}}" style="color:#1864ab">{{sentence}}</a></td><td>{{when}}</td><td>{{message}}</td></tr>
{{/each}}
</table>
{{#if more}}<p>… and {{more}} more: <a href="{{link}}" style="color:#1864ab">{{link}}</a></p>{{/if}}
{{#if failing}}
<h2 style="font-size:15px;margin:16px 0 8px">Also failing now</h2>
<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;font-size:14px">
{{#each failing}}
<tr style="border-top:1px solid #dee2e6"><td style="color:#c92a2a;font-weight:bold">Failed</td><td><a href="{{servicelink}}" style="color:#1864ab">{{sentence}}</a></td><td>since {{when}}</td></tr>
{{/each}}
</table>
{{#if failingmore}}<p>… and {{failingmore}} more</p>{{/if}}
{{/if}}
<p style="font-size:12px;color:#495057">Times in {{timezone}}. <a href="{{link}}" style="color:#1864ab">Open in Overseer</a></p>
</body></html>
`

/** Alerts listed one by one at most; a storm's notification says how many more. */
const LISTED_ALERTS = 50
/** The hosts' other failures listed at most. */
const LISTED_FAILING = 20

/** A failure active at the time of sending, as the templates list it ("also failing now"). */
export type FailingNow = Pick<
  AlertItem,
  'hostid' | 'host' | 'serviceid' | 'service' | 'servicetype' | 'event' | 'state' | 'message' | 'date'
>

/** What the words depend on besides the notification. */
export interface RenderContext {
  /** IANA zone the times are given in: the recipient's, else the server's */
  timeZone: string
  /** The console's base URL: the services' links are made absolute on it */
  consoleUrl: string
  /** The notification's hosts' failures at the time of sending that it does not tell of */
  failing: readonly FailingNow[]
}

export class TemplateError extends Error {}

let engine: typeof Handlebars | undefined
/** Loaded on first use: a server that renders no alert does not hold Handlebars in memory. */
function handlebars(): typeof Handlebars {
  engine ??= (createRequire(__filename)('handlebars') as typeof Handlebars).create()
  return engine
}
const cache = new Map<string, HandlebarsTemplateDelegate>()
let html: HandlebarsTemplateDelegate | undefined

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
  notification: AlertNotification,
  context: RenderContext = { timeZone: serverTimeZone(), consoleUrl: '', failing: [] }
): RenderedMessage {
  const view = viewOf(notification, context)
  html ??= handlebars().compile(HTML_BODY, { strict: false })
  return {
    subject: compileTemplate(templates.subject ?? DEFAULT_SUBJECT)(view).trim(),
    body: compileTemplate(templates.body ?? DEFAULT_BODY)(view),
    // A custom body is the whole message: an HTML part in other words would be the one mail clients show.
    ...(templates.body === null ? { html: html(view) } : {})
  }
}

function viewOf(notification: AlertNotification, context: RenderContext) {
  const worded = wordsIn(context)
  const alerts = notification.alerts.slice(0, LISTED_ALERTS).map(worded)
  const first = notification.alerts[0]
  const reminder = notification.summary.startsWith(REMINDER_PREFIX)
  const headline =
    notification.alerts.length === 1 && isMonitEvent(first.event)
      ? (reminder ? REMINDER_PREFIX : '') + alertHeadline(first)
      : notification.summary
  return {
    ...(alerts[0] ?? {}),
    headline,
    summary: notification.summary,
    link: notification.link,
    id: notification.id,
    alerts,
    count: notification.alerts.length,
    more: Math.max(0, notification.alerts.length - LISTED_ALERTS),
    failing: context.failing.slice(0, LISTED_FAILING).map(worded),
    failingmore: Math.max(0, context.failing.length - LISTED_FAILING),
    timezone: context.timeZone
  }
}

const stateLook = {
  failed: { statelabel: 'Failed', color: '#c92a2a' },
  changed: { statelabel: 'Changed', color: '#a35200' },
  succeeded: { statelabel: 'Recovered', color: '#2b8a3e' }
} as const

/** An alert's fields with its words, its time in the zone (`date` stays ISO 8601 UTC, `unixdate` the number) and its service's link. */
function wordsIn({ timeZone, consoleUrl }: RenderContext) {
  return <A extends FailingNow>(a: A) => ({
    ...a,
    ...stateLook[a.state],
    what: describeAlert(a),
    sentence: alertSentence(a),
    headline: alertHeadline(a),
    when: formatWhen(a.date, timeZone),
    unixdate: a.date,
    date: new Date(a.date * 1000).toISOString().replace('.000Z', 'Z'),
    servicelink: absoluteLink(
      consoleUrl,
      a.serviceid === null ? `#/hosts/${a.hostid}` : `#/hosts/${a.hostid}/services/${encodeURIComponent(a.service)}`
    )
  })
}
