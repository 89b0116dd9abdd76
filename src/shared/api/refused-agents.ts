// Agents the collector turned away (issue 28): from where, as whom, why and how often, so that "my host
// does not appear" has an answer. admin/agents/refused/list and dismiss; the same reasons label
// /metrics' overseer_collector_refused_total and the server's log.
import { z } from 'zod'
import { refusalReasons } from './refusal-reasons'

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
