// A user's fields as the server checks them (admin/users/*), shared with the console's user form,
// which checks them in the browser first.
import { z } from 'zod'

// Basic authentication (the collector) splits name and password at the first ':'.
export const userNameRule = z.string().trim().min(1, 'must not be empty').max(64, 'longer than 64 characters')
  .refine((s) => !s.includes(':'), "must not contain ':'")
// Not trimmed: spaces are part of a password.
export const passwordRule = z.string().min(1, 'must not be empty').max(1000, 'longer than 1000 characters')
export const fullNameRule = z.string().trim().min(1, 'must not be empty').max(200, 'longer than 200 characters')
export const contactRule = z.string().max(200, 'longer than 200 characters')
export const emailRule = contactRule.refine((s) => s === '' || /^[^\s@]+@[^\s@]+$/.test(s), 'expected an e-mail address')

/** The console's user form: a new user needs a password; an edited one keeps its own when left empty. */
export function userFormRules(creating: boolean) {
  return z.object({
    uname: userNameRule,
    fullname: fullNameRule,
    email: contactRule,
    password: creating ? passwordRule : z.string().max(1000, 'longer than 1000 characters'),
    roleid: z.array(z.number()).min(1, 'choose at least one role')
  })
}

/** The logged-in user's own name and e-mail (profile/update). */
export const profileFormRules = z.object({ fullname: fullNameRule, email: emailRule })

/** A new password for oneself: the current one, and the new one typed twice. */
export const ownPasswordFormRules = z.object({
  oldpassword: z.string().min(1, 'must not be empty'),
  password: passwordRule,
  repeat: z.string()
}).refine((v) => v.repeat === v.password, { path: ['repeat'], message: 'the two passwords differ' })
