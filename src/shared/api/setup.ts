// First-run setup (ours): the arguments and answers of setup/status and setup/complete, shared by the
// server and the console's setup screen, whose form checks the same rules (every field at once, before
// sending; the server never trusts the form).
import { z } from 'zod'
import { PASSWORD_MIN_LENGTH, passwordRule } from './users'

// Monit 5.33 does not percent-decode the credentials of its `set mmonit` URL.
const urlSafe = (what: string) => z.string().regex(/^[A-Za-z0-9]+$/, `${what} may hold letters and digits only (Monit sends it in a URL)`)

/** What Monit can send as the collector password: it goes into the `set mmonit` URL as it is. */
export const collectorPasswordRule = urlSafe('the password')
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(200, 'longer than 200 characters')

/** setup/complete's JSON body. */
export const setupArgs = {
  adminuname: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'longer than 64 characters')
    .refine((s) => !s.includes(':'), "must not contain ':'"),
  adminpassword: passwordRule,
  adminfullname: z.string().trim().max(200, 'longer than 200 characters').optional(),
  collectoruname: urlSafe('the name').max(64, 'longer than 64 characters'),
  collectorpassword: collectorPasswordRule
}

/** The whole request, as the console's form checks it (the server checks the names differ in its handler). */
export const setupRequest = z.object(setupArgs).refine((p) => p.collectoruname !== p.adminuname.trim(), {
  path: ['collectoruname'],
  message: "must differ from the administrator's name"
})
export type SetupRequest = z.input<typeof setupRequest>

export const setupStatusAnswer = z.object({
  setup: z.literal('open'),
  urls: z.array(z.string()).describe('The URLs the server listens on: what agents can be told to report to')
})
export type SetupStatus = z.infer<typeof setupStatusAnswer>

const createdUser = z.object({ id: z.number().int(), uname: z.string() })
export const setupResult = z.object({ admin: createdUser, collector: createdUser, urls: z.array(z.string()) })
export type SetupResult = z.infer<typeof setupResult>
