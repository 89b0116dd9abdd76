// The contracts of admin/users/*, which differ between api/1 (compat USR-1, USR-2) and api/2, and a user's
// fields as the server checks them, shared with the console's user form, which checks them in the browser first.
import { z } from 'zod'

const profileFields = {
  uname: z.string(),
  fullname: z.string(),
  image: z.string(),
  title: z.string(),
  email: z.string(),
  mobile: z.string(),
  imname: z.string(),
  imtype: z.string()
}

/** A user of admin/users/list: api/1's fields; api/2 and the legacy paths add id (a string, GEN-4), avatar and unsafepassword. */
export const userEntry = z.object({
  ...profileFields,
  id: z.string().optional(),
  avatar: z.string().optional(),
  unsafepassword: z.number().int().optional()
})
/** As api/2 answers it. */
export type UserEntry = Required<z.infer<typeof userEntry>>

export const userListAnswer = z.array(userEntry)

/** admin/users/get, create and update: every field; `password` is the token the version's update compares against. */
export const userDetailAnswer = z.object({
  ...profileFields,
  phone: z.string(),
  admin: z.boolean(),
  password: z
    .string()
    .describe(
      'An opaque token of the current password (never a digest of it): sent back as password (api/2) or oldpassword (api/1), it means "unchanged"'
    ),
  id: z.string().optional().describe('api/2 and legacy'),
  roles: z.array(z.number().int()).optional().describe('api/2 and legacy: the role ids'),
  timezone: z.string().optional().describe("api/2: the IANA time zone of the notifications e-mailed to the user; '' the server's")
})
/** As api/2 answers it. */
export type UserDetail = Required<z.infer<typeof userDetailAnswer>>

// Basic authentication (the collector) splits name and password at the first ':'.
export const userNameRule = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'longer than 64 characters')
  .refine((s) => !s.includes(':'), "must not contain ':'")
/** For every password set from now on; older and command-line ones are flagged unsafe instead (unsafepassword). */
export const PASSWORD_MIN_LENGTH = 8
// Not trimmed: spaces are part of a password.
export const passwordRule = z
  .string()
  .min(1, 'must not be empty')
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1000, 'longer than 1000 characters')
export const fullNameRule = z.string().trim().min(1, 'must not be empty').max(200, 'longer than 200 characters')
export const contactRule = z.string().max(200, 'longer than 200 characters')
export const emailRule = contactRule.refine((s) => s === '' || /^[^\s@]+@[^\s@]+$/.test(s), 'expected an e-mail address')

const bothPasswords = ({ value }: { value: unknown }) =>
  typeof (value as { password?: unknown }).password === 'string' && typeof (value as { confirm?: unknown }).confirm === 'string'

/**
 * The console's user form, like first-run setup: the password typed twice, the full name optional (the
 * form sends the user name in its place); an edited user keeps its password when both are left empty.
 */
export function userFormRules(creating: boolean) {
  return (
    z
      .object({
        uname: userNameRule,
        fullname: z.string().trim().max(200, 'longer than 200 characters'),
        email: contactRule,
        password: creating
          ? passwordRule
          : z
              .string()
              .max(1000, 'longer than 1000 characters')
              .refine((s) => s === '' || s.length >= PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
        confirm: z.string(),
        roleid: z.array(z.number()).min(1, 'choose at least one role')
      })
      // Checked even while another field is wrong, so that every problem shows at once.
      .refine((v) => v.confirm === v.password, { path: ['confirm'], message: 'the two passwords differ', when: bothPasswords })
  )
}

/** The logged-in user's own name and e-mail (profile/update). */
export const profileFormRules = z.object({ fullname: fullNameRule, email: emailRule })

/** A new password for oneself: the current one, and the new one typed twice. */
export const ownPasswordFormRules = z
  .object({
    oldpassword: z.string().min(1, 'must not be empty'),
    password: passwordRule,
    repeat: z.string()
  })
  .refine((v) => v.repeat === v.password, { path: ['repeat'], message: 'the two passwords differ' })
