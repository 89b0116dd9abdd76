// admin/agents/refused/list|dismiss (issue 28, our extension): agents the collector turned away and why
// (collector/refused-agents.ts), so that an agent with a wrong password is seen rather than silent. This
// instance's list: it lives in memory, not in the database (docs/collector.md#refused-agents).
import { refusedAgentsAnswer } from '../../shared/api/refused-agents'
import { endpoint, type ApiEndpoint } from '../http/api'
import { removalEndpoint } from './audit'
import type { ApiDeps } from './deps'

export function adminRefusedAgentEndpoints({ store, refusedAgents }: ApiDeps): ApiEndpoint[] {
  return [
    endpoint({
      path: 'admin/agents/refused/list',
      summary: 'Agents and messages the collector refused: address, user name, reason, first and last time, count',
      extension: true,
      answer: refusedAgentsAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ records: refusedAgents.list(), dropped: refusedAgents.dropped })
    }),
    removalEndpoint(store.auditLog, {
      path: 'admin/agents/refused/dismiss',
      summary: 'Removes one entry from the refused agents (it comes back at its next refusal)',
      entity: 'refused-agent',
      verb: 'dismiss',
      remove: (id) => refusedAgents.dismiss(id)
    })
  ]
}
