// The `email` channel's settings (issue 13): the SMTP server, the sender and the recipients.
import { z } from 'zod'
import { bool, int, list, oneOf, secret, text } from './args'

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const
export type SmtpSecurity = (typeof SMTP_SECURITY)[number]

const MAX_RECIPIENTS = 100

// addr-spec without quoted local parts or literals: enough for alert recipients, and nothing that
// could break out of a header or an SMTP command.
const ADDRESS = /^[^\s@<>()[\],;:"\\]{1,64}@(?=.{1,253}$)[^\s@<>()[\],;:"\\.]+(\.[^\s@<>()[\],;:"\\.]+)*$/u

export interface Mailbox {
  name?: string
  address: string
}

/** `ops@example.com` or `Ops team <ops@example.com>`; undefined when it is neither. */
export function parseMailbox(s: string): Mailbox | undefined {
  const v = s.trim()
  if (ADDRESS.test(v)) return { address: v }
  const m = /^(.*?)\s*<([^<>]+)>$/u.exec(v)
  if (!m || !ADDRESS.test(m[2].trim())) return undefined
  const name = m[1].trim().replace(/^"(.*)"$/u, '$1')
  if (/[<>"]/.test(name)) return undefined
  return name ? { name, address: m[2].trim() } : { address: m[2].trim() }
}

const mailbox = text(320, (s) =>
  parseMailbox(s) ? undefined : 'expected an e-mail address such as ops@example.com or "Ops <ops@example.com>"'
)
const hostname = text(253, (s) => (/^[A-Za-z0-9._:[\]-]+$/.test(s) ? undefined : 'expected a host name or IP address'))

/** The settings the checks across them read: those only, and only once each of them is valid. */
const ACROSS = ['to', 'userid', 'smtpuser', 'smtppassword']

export const emailSettings = z
  .object({
    smtphost: hostname.required(),
    /** Absent: 25, 587 or 465 after smtpsecurity. */
    smtpport: int(1, 65535, 'a port number').optional(),
    smtpsecurity: oneOf(SMTP_SECURITY).default('starttls'),
    /** false accepts a self-signed or otherwise unverifiable certificate (a test or in-house relay). */
    smtptlsverify: bool().default(true),
    smtpuser: text(256).optional(),
    smtppassword: secret(1000).optional(),
    from: mailbox.required(),
    to: list(mailbox.required(), MAX_RECIPIENTS),
    userid: list(int(1, Number.MAX_SAFE_INTEGER, 'a user id').required(), MAX_RECIPIENTS)
  })
  .superRefine(
    (s, ctx) => {
      if (s.to.length === 0 && s.userid.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'at least one recipient is required (to, userid or both)' })
      }
      if (s.smtppassword !== undefined && s.smtpuser === undefined) {
        ctx.addIssue({ code: 'custom', path: ['smtpuser'], message: 'is required with smtppassword' })
      }
      if (s.smtpuser !== undefined && s.smtppassword === undefined) {
        ctx.addIssue({ code: 'custom', path: ['smtppassword'], message: 'is required with smtpuser' })
      }
    },
    {
      // Also when another setting is wrong, so that a form shows every problem at once; these come after
      // the settings' own, so the API's first complaint stays the same.
      when: (payload) => !payload.issues.some((issue) => ACROSS.includes(String(issue.path?.[0])))
    }
  )

export type EmailSettings = z.output<typeof emailSettings>
