// The `email` channel (issue 13): one message per notification over SMTP, through nodemailer.
//
// A transport per send, closed after it (and on abort): alerts are rare enough that a pool would only
// hold idle connections, and a changed setting applies at once. Security `none` never upgrades (even
// when the server offers STARTTLS), `starttls` refuses to go on without it (no silent plaintext), `tls`
// is TLS from the first byte (port 465). A user name sends AUTH even when the server does not offer
// it over the current connection, so a password never silently goes unused. The Message-ID is derived
// from the notification id: a retried send (after a timeout, a crash) is recognisably the same message.
// Recipients who set a time zone get the message with its times in it (one message per zone).
import { createHash } from 'node:crypto'
import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'
import type { NodemailerError } from 'nodemailer'
import {
  emailSettings,
  parseMailbox,
  type EmailSettings,
  type Mailbox,
  type SmtpSecurity
} from '../../../shared/alert-channel-settings/email'
import type { AlertNotification } from '../../../shared/api/alerts'
import type { ChannelType, RenderedMessage, SendContext, SendResult } from '../channel'

/** The port when none is set: submission with STARTTLS, submissions (implicit TLS), plain SMTP. */
export const DEFAULT_PORT: Record<SmtpSecurity, number> = { none: 25, starttls: 587, tls: 465 }

/** Bounds of one send; the delivery job's AbortSignal may end it earlier. */
export const SMTP_TIMEOUTS = { connectionMs: 15_000, greetingMs: 15_000, socketMs: 60_000, dnsMs: 15_000 }

// The settings' rules are shared with the console (its tests read them from here).
export { emailSettings, parseMailbox }

/** `<overseer.ID@domain-of-from>`, ID the notification id itself when it is safe in a header, else its hash. */
export function messageIdOf(notificationId: string, from: string): string {
  const id = /^[A-Za-z0-9._=+-]{1,100}$/.test(notificationId)
    ? notificationId
    : createHash('sha256').update(notificationId).digest('hex').slice(0, 40)
  const domain = (parseMailbox(from)?.address ?? 'overseer.invalid').split('@')[1]
  return `<overseer.${id}@${domainToASCII(domain) || 'overseer.invalid'}>`
}

async function send(
  settings: EmailSettings,
  notification: AlertNotification,
  message: RenderedMessage,
  context: SendContext
): Promise<SendResult> {
  const port = settings.smtpport ?? DEFAULT_PORT[settings.smtpsecurity]
  const host = settings.smtphost.replace(/^\[(.*)\]$/, '$1')
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`

  const recipients = new Map<string, Mailbox>()
  for (const r of settings.to) {
    const m = parseMailbox(r)
    if (m) recipients.set(m.address.toLowerCase(), m)
  }
  const notes: string[] = []
  if (settings.userid.length > 0) {
    if (!context.userEmails) return { ok: false, error: "users' e-mail addresses are not available to this send (userid recipients)" }
    const found = context.userEmails(settings.userid)
    let usable = 0
    for (const a of found) {
      const m = parseMailbox(a)
      if (m) {
        usable += 1
        if (!recipients.has(m.address.toLowerCase())) recipients.set(m.address.toLowerCase(), m)
      } else notes.push(`ignored a user's e-mail address that is not valid: ${JSON.stringify(a)}`)
    }
    if (usable < settings.userid.length) notes.push(`users ${settings.userid.join(', ')}: ${usable} with an e-mail address`)
  }
  if (recipients.size === 0)
    return { ok: false, error: `no recipient: ${notes.join('; ') || 'none configured'}`, log: notes.join('\n') || undefined }

  if (context.signal.aborted) return { ok: false, error: `aborted before connecting to ${where}` }

  const security = settings.smtpsecurity
  // Loaded on the first send: a server that sends no e-mail does not hold nodemailer in memory.
  const { default: nodemailer } = await import('nodemailer')
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: security === 'tls',
    ignoreTLS: security === 'none',
    requireTLS: security === 'starttls',
    opportunisticTLS: false,
    tls: {
      rejectUnauthorized: settings.smtptlsverify,
      minVersion: 'TLSv1.2',
      ...(isIP(host) ? {} : { servername: host })
    },
    auth: settings.smtpuser !== undefined ? { user: settings.smtpuser, pass: settings.smtppassword ?? '' } : undefined,
    forceAuth: settings.smtpuser !== undefined,
    connectionTimeout: SMTP_TIMEOUTS.connectionMs,
    greetingTimeout: SMTP_TIMEOUTS.greetingMs,
    socketTimeout: SMTP_TIMEOUTS.socketMs,
    dnsTimeout: SMTP_TIMEOUTS.dnsMs,
    socketCloseTimeout: 0,
    logger: false,
    debug: false
  })
  // Users who set a time zone read the times in it: one message per zone among the recipients.
  const zones = settings.userid.length > 0 && context.userTimeZones ? context.userTimeZones(settings.userid) : new Map<string, string>()
  const byZone = new Map<string | undefined, Mailbox[]>()
  for (const [address, m] of recipients) {
    const zone = zones.get(address)
    byZone.set(zone, [...(byZone.get(zone) ?? []), m])
  }
  const log: string[] = []
  try {
    for (const [zone, to] of byZone) {
      const words = zone === undefined ? message : (context.messageIn?.(zone) ?? message)
      const info = await transport.sendMail({
        from: parseMailbox(settings.from),
        to,
        subject: words.subject.replace(/[\r\n]+/g, ' '),
        text: words.body,
        ...(words.html === undefined ? {} : { html: words.html }),
        messageId: messageIdOf(byZone.size === 1 ? notification.id : `${notification.id}.${zone ?? 'server'}`, settings.from),
        headers: {
          'X-Overseer-Notification': notification.id.replace(/[\u0000-\u001f\u007f]/g, ' '),
          // RFC 3834: no auto-replies (vacation notices) back to the sender
          'Auto-Submitted': 'auto-generated'
        },
        signal: context.signal
      })
      const refused = (info.rejectedErrors ?? []).map((e) => `${e.recipient ?? '?'} (${oneLine(e.response ?? e.message)})`)
      log.push(
        `${where} accepted the message${zone === undefined ? '' : ` in ${zone}`} for ${info.accepted.map(String).join(', ') || 'no one'}: ${oneLine(String(info.response ?? ''))}`,
        // Some recipients taken, some refused: delivered (a retry would send the others a duplicate), refusals logged.
        ...(refused.length ? [`recipient refused: ${refused.join('; ')}`] : [])
      )
    }
    return { ok: true, log: [...log, ...notes].join('\n') }
  } catch (err) {
    return { ok: false, error: describeError(err, where, context.signal), log: [...log, ...notes].join('\n') || undefined }
  } finally {
    transport.close()
  }
}

function oneLine(s: string | undefined, max = 300): string {
  const t = (s ?? '').replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max)}…` : t
}

const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/

/** The error in the channel's own words: what failed where, with the server's reply when there is one. */
export function describeError(err: unknown, where: string, signal?: AbortSignal): string {
  const e = (err ?? {}) as NodemailerError
  const reply = e.response ? `: ${oneLine(e.response)}` : ''
  const code = e.code ?? ''
  const original = e.originalCode ?? ''
  if (code === 'EABORT' || signal?.aborted) {
    const reason = signal?.reason instanceof Error ? signal.reason.message : signal?.reason ? String(signal.reason) : ''
    return `sending to ${where} aborted${reason ? ` (${oneLine(reason, 120)})` : ''}`
  }
  if (code === 'EAUTH') return `${where}: authentication failed${reply || `: ${oneLine(e.message)}`}`
  if (code === 'ENOAUTH') return `${where}: authentication failed: no credentials`
  if (code === 'EENVELOPE') {
    const refused = e.rejectedErrors?.length
      ? e.rejectedErrors.map((r) => `${r.recipient ?? '?'} (${oneLine(r.response ?? r.message)})`)
      : e.rejected?.length
        ? e.rejected
        : []
    if (refused.length) return `${where}: recipient refused: ${refused.join('; ')}`
    if (/MAIL FROM/i.test(e.command ?? '')) return `${where}: sender refused${reply}`
    return `${where}: envelope refused${reply || `: ${oneLine(e.message)}`}`
  }
  if (code === 'EMESSAGE') return `${where}: message refused${reply || `: ${oneLine(e.message)}`}`
  if (original === 'ECONNREFUSED' || code === 'ECONNREFUSED') return `${where}: connection refused`
  if (original === 'EHOSTUNREACH' || original === 'ENETUNREACH') return `${where}: host unreachable`
  if (original === 'ECONNRESET' || code === 'ECONNRESET') return `${where}: connection reset by the server`
  if (code === 'EDNS' || original === 'ENOTFOUND' || original === 'EAI_AGAIN')
    return `${where}: cannot resolve the host name (${oneLine(e.message, 120)})`
  if (code === 'ETIMEDOUT') {
    const s = (ms: number) => `${ms / 1000} s`
    switch (e.timeoutType) {
      case 'CONNECT_TIMEOUT':
        return `${where}: no connection within ${s(SMTP_TIMEOUTS.connectionMs)}`
      case 'GREETING_TIMEOUT':
        return `${where}: no greeting from the server within ${s(SMTP_TIMEOUTS.greetingMs)}`
      case 'UPGRADE_TIMEOUT':
        return `${where}: TLS handshake timed out`
      case 'SOCKET_TIMEOUT':
        return `${where}: the server stopped answering (${s(SMTP_TIMEOUTS.socketMs)} idle)`
      default:
        return `${where}: timed out (${oneLine(e.message, 120)})`
    }
  }
  if (CERT_CODES.test(original) || CERT_CODES.test(code) || /certificate/i.test(e.message ?? '')) {
    return `${where}: the server's TLS certificate is not trusted: ${oneLine(e.message, 200)} (smtptlsverify=false accepts it)`
  }
  // nodemailer's message, with the server's reply unless the message quotes it already
  const said = oneLine(e.message || String(err), 200) + (e.response && !(e.message ?? '').includes(e.response) ? reply : '')
  if (/STARTTLS/i.test(e.message ?? '') || code === 'ETLS') return `${where}: TLS failed: ${said}`
  return `${where}: ${said}`
}

export const emailChannel: ChannelType<EmailSettings> = {
  type: 'email',
  settings: emailSettings,
  secretFields: ['smtppassword'],
  send
}
