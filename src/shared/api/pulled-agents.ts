// The contracts of admin/pulled/{list,create,delete} (ours, issue 30 §1), shared by the server and the
// console: Monit agents the server reads from their httpd, for agents that cannot reach it.
import { z } from 'zod'

/** Between polls, seconds: from 2 (the polls of many agents are bounded by the pull job, not by this) to an hour. */
export const PULL_POLL_LIMITS = { min: 2, max: 3600 } as const
export const DEFAULT_PULL_POLL_SEC = 30
/** The longest URL, and user name or password, admin/pulled/create takes. */
export const PULLED_URL_MAX = 300
export const PULLED_CREDENTIAL_MAX = 255
/** Monit's httpd port unless the URL names another. */
export const MONIT_HTTPD_PORT = 2812

export const pulledAgent = z.object({
  id: z.number().int(),
  url: z.string().describe("The agent's httpd, e.g. https://10.0.0.5:2812"),
  username: z.string().describe('Sent with Basic authentication; the password is write-only'),
  certificate: z.string().describe("An HTTPS agent's certificate SHA-256, pinned at its first answer; '' before"),
  poll: z.number().int().describe('Seconds between polls'),
  agentid: z.string().nullable().describe("The agent's id, from its first answer"),
  hostid: z.number().int().nullable().describe('The host its reports go to, once it answered'),
  hostname: z.string().nullable(),
  createdat: z.number().int(),
  polledat: z.number().int().nullable().describe('Unix seconds of the last poll tried'),
  answeredat: z.number().int().nullable().describe('Unix seconds of the last poll answered'),
  error: z.string().nullable().describe('Why the last poll failed; null when it was answered')
})
export type PulledAgent = z.infer<typeof pulledAgent>

export const pulledAgentList = z.object({ records: z.array(pulledAgent) })
export type PulledAgentList = z.infer<typeof pulledAgentList>
