// Pulled agents (admin/pulled/*, issue 30 §1): Monit agents the server reads from their httpd. A poll's
// outcome is not pushed by the live stream, so the list is read again every few seconds while shown.
import { queryOptions } from '@tanstack/react-query'
import type { Created } from '../../shared/api/common'
import type { PulledAgentList } from '../../shared/api/pulled-agents'
import { apiGet, apiPost } from './client'

export type { PulledAgent, PulledAgentList } from '../../shared/api/pulled-agents'

/** Often enough that a new agent's first poll (about a second after it is added) shows soon. */
export const PULLED_REFRESH_MS = 3_000

export const pulledAgentsQuery = queryOptions({
  queryKey: ['admin', 'pulled-agents'] as const,
  queryFn: async () => (await apiGet<PulledAgentList>('admin/pulled/list')).records,
  refetchInterval: PULLED_REFRESH_MS
})

export interface NewPulledAgent {
  url: string
  username: string
  password: string
  poll: number
}

export const createPulledAgent = (agent: NewPulledAgent) => apiPost<Created>('admin/pulled/create', { ...agent })

export const deletePulledAgent = (id: number) => apiPost('admin/pulled/delete', { id })
