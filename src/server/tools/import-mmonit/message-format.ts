// M/Monit's message template (messageformat) as a channel's subject and body templates (Handlebars,
// alerting/templates.ts). Its placeholders map to the fields every notification has; $ACTION has none
// (an Overseer notification tells of events, not of the action the agent took) and is dropped, said in
// `notes`. Its text parts only: Overseer's messages are plain text.
import { compileTemplate, TemplateError } from '../../alerting/templates'

export interface MessageFormat {
  sender: string
  subjectsingle: string
  subjectmulti: string
  txtheader: string
  txtbody: string
  txtfooter: string
  htmlheader: string
  htmlbody: string
  htmlfooter: string
}

export interface ChannelTemplates {
  subject: string | null
  body: string | null
  notes: string[]
}

/** M/Monit's placeholder → our field; `count` is the notification's, so it is read from the root inside a loop. */
const PLACEHOLDERS: Record<string, string> = {
  HOST: '{{host}}',
  SERVICE: '{{service}}',
  EVENT: '{{event}}',
  DATE: '{{date}}',
  DESCRIPTION: '{{message}}',
  COUNT: '{{@root.count}}',
  ACTION: ''
}

export function channelTemplates(format: MessageFormat): ChannelTemplates {
  const notes: string[] = []
  const convert = (text: string) => {
    if (/\$ACTION\b/.test(text) && !notes.some((n) => n.startsWith('$ACTION'))) {
      notes.push('$ACTION has no counterpart in an Overseer notification: left out of the template')
    }
    // Braces of the text itself stay text; then each placeholder becomes its field.
    return text
      .replaceAll('{{', '\\{{')
      .replace(/\$(HOST|SERVICE|EVENT|DATE|DESCRIPTION|COUNT|ACTION)\b/g, (_, name: string) => PLACEHOLDERS[name])
  }
  const single = convert(format.subjectsingle.trim())
  const multi = convert(format.subjectmulti.trim())
  // A notification holds several alerts when M/Monit would have used its "multi" subject.
  const subject = single && multi && single !== multi ? `{{#if alerts.[1]}}${multi}{{else}}${single}{{/if}}` : single || multi
  // The body once per event between header and footer, as M/Monit lists several events in one message.
  const body =
    format.txtbody.trim() === ''
      ? ''
      : `${convert(format.txtheader)}{{#each alerts}}${convert(format.txtbody)}{{/each}}${convert(format.txtfooter)}`
  if ([format.htmlheader, format.htmlbody, format.htmlfooter].some((t) => t.trim() !== '')) {
    notes.push('the HTML template is not imported: Overseer sends its messages as plain text (the text template is)')
  }
  return { subject: checked(subject, 'subject', notes), body: checked(body, 'body', notes), notes }
}

/** The template, or null (the channel's default) when it is empty or Handlebars refuses it. */
function checked(template: string, what: string, notes: string[]): string | null {
  if (template === '') return null
  try {
    compileTemplate(template)
    return template
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e
    notes.push(`the ${what} template could not be converted (${e.message}): the default one is used`)
    return null
  }
}
