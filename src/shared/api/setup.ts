// First-run setup's request (POST /api/2/setup/complete), checked by the same rules in the console's
// form (every field at once, before sending) and on the server (which never trusts the form).
import { z } from 'zod'

// Monit 5.33 does not percent-decode the credentials of its `set mmonit` URL.
const urlSafe = (what: string) => z.string().regex(/^[A-Za-z0-9]+$/, `${what} may hold letters and digits only (Monit sends it in a URL)`)

/** What Monit can send as the collector password: it goes into the `set mmonit` URL as it is. */
export const collectorPasswordRule = urlSafe('the password').min(8, 'must be at least 8 characters').max(200, 'longer than 200 characters')

export const setupRequest = z.object({
  adminuname: z.string().trim().min(1, 'must not be empty').max(64, 'longer than 64 characters')
    .refine((s) => !s.includes(':'), "must not contain ':'"),
  adminpassword: z.string().min(8, 'must be at least 8 characters').max(1000, 'longer than 1000 characters'),
  adminfullname: z.string().trim().max(200, 'longer than 200 characters').optional(),
  collectoruname: urlSafe('the name').max(64, 'longer than 64 characters'),
  collectorpassword: collectorPasswordRule
}).refine((p) => p.collectoruname !== p.adminuname.trim(), {
  path: ['collectoruname'], message: "must differ from the administrator's name"
})

export type SetupRequest = z.input<typeof setupRequest>
