// The contracts of admin/users/*, which differ between api/1 (compat USR-1, USR-2) and api/2.
import { z } from 'zod'

const profileFields = {
  uname: z.string(), fullname: z.string(), image: z.string(), title: z.string(),
  email: z.string(), mobile: z.string(), imname: z.string(), imtype: z.string()
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

/** admin/users/get, create and update: every field; `password` is the digest the version's update compares against. */
export const userDetailAnswer = z.object({
  ...profileFields,
  phone: z.string(),
  admin: z.boolean(),
  password: z.string().describe('api/2: the stored SHA-256 digest (sent back unchanged, it keeps the password); api/1 and legacy: the MD5 digest'),
  id: z.string().optional().describe('api/2 and legacy'),
  roles: z.array(z.number().int()).optional().describe('api/2 and legacy: the role ids')
})
/** As api/2 answers it. */
export type UserDetail = Required<z.infer<typeof userDetailAnswer>>
