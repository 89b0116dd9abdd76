// Agents the collector turned away (issue 28): from where, as whom, why and how often, so that "my host
// does not appear" has an answer. admin/agents/refused/list and dismiss; the same reasons label
// /metrics' overseer_collector_refused_total and the server's log.
import { z } from 'zod'

/** Refusals of the agent itself: cleared once one of its messages is stored. */
export const loginRefusals = [
  'no_credentials',
  'unknown_user',
  'wrong_password',
  'no_collector_permission',
  'host_not_permitted',
  'locked_out'
] as const
/** Refusals of one message: the agent's next ones may be stored, and this one is lost all the same, so they stay until dismissed. */
export const messageRefusals = ['too_large', 'malformed'] as const
export const refusalReasons = [...loginRefusals, ...messageRefusals] as const
export type RefusalReason = (typeof refusalReasons)[number]

/** The likely cause in words, and what to do about it: the console and the log say the same. */
export const refusalCause: Record<RefusalReason, string> = {
  no_credentials: 'no user name and password sent: add USER:PASSWORD@ to its set mmonit URL',
  unknown_user: 'unknown user: no user of this name exists on this server',
  wrong_password: "wrong password: the password in its set mmonit URL is not this user's",
  no_collector_permission: 'the user lacks the collector permission: give it a role that may collect',
  host_not_permitted: "the user may not report for this host: add the host to one of its roles' host groups",
  locked_out: 'locked out after repeated failed logins: it is let in again once the wrong password is fixed and the lock ends',
  too_large: "a message larger than this server accepts was refused: the server's log names the limit it passed",
  malformed: "a message that is not a valid Monit message was refused: the server's log says what was wrong"
}

export const refusedAgent = z.object({
  id: z.number().int(),
  address: z.string().describe('Where the request came from (a trusted proxy forwards it)'),
  uname: z.string().describe('The user name as sent (at most 64 characters); empty when none was sent. The password is never kept.'),
  reason: z.enum(refusalReasons),
  first: z.number().int().describe('Unix seconds of the first refusal'),
  last: z.number().int().describe('Unix seconds of the last one'),
  count: z.number().int()
})
export type RefusedAgent = z.infer<typeof refusedAgent>

export const refusedAgentsAnswer = z.object({
  records: z.array(refusedAgent).describe('The latest attempt first'),
  dropped: z.number().int().describe('Entries forgotten since the server started, the oldest first, to keep the list bounded')
})
export type RefusedAgentsAnswer = z.infer<typeof refusedAgentsAnswer>
