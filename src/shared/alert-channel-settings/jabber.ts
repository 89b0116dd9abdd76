// The `jabber` channel's settings (issue 13): the sender's account and password, the recipients, and
// optionally the server (instead of the domain's SRV records), its port and security.
import { z } from 'zod'

/**
 * local@domain with no resource and no white space, as @xmpp/jid splits it: the resource after the
 * first "/", the local part before the first "@" ahead of it.
 */
export function isBareJid(value: string): boolean {
  if (/\s/.test(value) || value.length > 3071) return false
  const [address, ...resource] = value.split('/')
  const at = address.indexOf('@')
  return at > 0 && at < address.length - 1 && resource.join('/') === ''
}

const bareJid = (what: string) => z.string().trim().refine(isBareJid, `expected ${what} as a bare JID such as user@example.org`)

// Stored settings are typed; form arguments are strings: both are accepted.
const boolSetting = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => ['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(s), 'expected true or false')
    .transform((s) => ['true', '1', 'on', 'yes'].includes(s))
])
const portSetting = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, 'expected a port number')
      .transform(Number)
  ])
  .pipe(z.number().int().min(1, 'expected a port from 1 to 65535').max(65535, 'expected a port from 1 to 65535'))

export const jabberSettings = z.object({
  /** The sender's account, e.g. overseer@example.org */
  jid: bareJid('the sender'),
  password: z.string().min(1, 'must not be empty').max(1000),
  /** Recipients' JIDs (repeatable argument) */
  to: z.array(bareJid('a recipient')).min(1, 'at least one recipient').max(100),
  /** Server host name or address instead of the domain's SRV records (or the domain itself). */
  host: z
    .string()
    .trim()
    .max(253)
    .regex(/^[A-Za-z0-9._:[\]-]*$/, 'expected a host name or address')
    .optional()
    .transform((s) => (s ? s.replace(/^\[(.*)\]$/, '$1') : undefined)),
  /** Default 5222 (5223 with security=tls); empty as absent, as a form sends it */
  port: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), portSetting.optional()),
  security: z.enum(['starttls', 'tls', 'none'], { message: 'expected one of starttls, tls, none' }).default('starttls'),
  tlsverify: boolSetting.default(true)
})

export type JabberSettings = z.output<typeof jabberSettings>
