// The contract of admin/sso/get and admin/sso/groups/update (ours, issue 30 §2), shared by the server and the
// console: single sign-on as configured, and which roles each identity provider group gives.
import { z } from 'zod'

/** The longest group name read from a claim, and mapped (admin/sso/groups/update). */
export const SSO_GROUP_MAX = 255

export const ssoGroupMapping = z.object({
  group: z.string().describe("A group as the provider's group claim names it"),
  roleids: z.array(z.number().int()).describe('The roles the group gives (a user gets those of all its groups)')
})
export type SsoGroupMapping = z.infer<typeof ssoGroupMapping>

export const ssoSettings = z.object({
  enabled: z.boolean().describe('Whether single sign-on is configured (--oidc-issuer …)'),
  issuer: z.string().nullable(),
  groupsclaim: z.string().nullable(),
  linkbyemail: z.boolean(),
  passwordlogin: z.enum(['on', 'break-glass']).describe('break-glass: browsers log in with a password only as breakglassuser'),
  breakglassuser: z.string().nullable(),
  groups: z.array(ssoGroupMapping).describe("The mapping table: with none, single sign-on users' roles are left as administrators set them")
})
export type SsoSettings = z.infer<typeof ssoSettings>
