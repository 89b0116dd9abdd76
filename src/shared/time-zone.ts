// A time zone as people set it for themselves (issue 28): an IANA name such as Europe/Oslo, or '' for the
// server's own. Checked by the server (profile/update, admin/users/*) and the console's forms alike.
import { z } from 'zod'

/** The IANA name as the platform spells it (`europe/oslo` → `Europe/Oslo`); undefined when it knows no such zone. */
export function canonicalTimeZone(name: string): string | undefined {
  // Names only: Intl also takes offsets such as "+01:00", which follow no daylight saving time.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return undefined
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

export const timeZoneRule = z
  .string()
  .trim()
  .max(64, 'longer than 64 characters')
  .refine(
    (s) => s === '' || canonicalTimeZone(s) !== undefined,
    'expected an IANA time zone such as Europe/Oslo, or empty for the server’s'
  )
  .transform((s) => (s === '' ? '' : canonicalTimeZone(s)!))
