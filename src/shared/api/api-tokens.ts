// The contracts of personal API tokens (tokens/*, admin/tokens/*), shared by the server and the console.
import { z } from 'zod'

export const apiTokenScopes = ['read', 'full'] as const
export type ApiTokenScope = (typeof apiTokenScopes)[number]
/** The expiries the console offers, in days; the API takes any from 1 to MAX_TOKEN_DAYS. */
export const apiTokenExpiryChoices = [30, 90, 365] as const
export const MAX_TOKEN_DAYS = 3650
export const MAX_TOKEN_NAME = 100

export const apiToken = z.object({
  id: z.number().int(),
  userid: z.number().int(),
  uname: z.string(),
  name: z.string(),
  prefix: z.string().describe("The token's first characters, to tell tokens apart (never the whole token)"),
  scope: z.enum(apiTokenScopes).describe("'read': no state-changing call; 'full': the owner's permissions"),
  created: z.number().int().describe('Unix seconds'),
  expires: z.number().int().nullable().describe('Unix seconds; null: never'),
  lastused: z.number().int().nullable().describe('Unix seconds, to the minute; null: never used')
})
export type ApiToken = z.infer<typeof apiToken>

export const apiTokenList = z.object({ tokens: z.array(apiToken) })

/** tokens/create: the only answer that holds the token itself. */
export const createdApiToken = apiToken.extend({
  token: z.string().describe('Send as "Authorization: Bearer <token>"; shown this once, stored only as a hash')
})
export type CreatedApiToken = z.infer<typeof createdApiToken>
