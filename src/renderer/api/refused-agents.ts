// Agents the collector refused (admin/agents/refused/*): not pushed by the live stream (a refusal is
// not a change of stored data), so read again every few seconds while a screen shows them.
import { queryOptions } from '@tanstack/react-query'
import type { RefusedAgentsAnswer } from '../../shared/api/refused-agents'
import { apiGet, apiPost } from './client'

export type { RefusedAgent, RefusedAgentsAnswer } from '../../shared/api/refused-agents'

const REFRESH_MS = 10_000

export const refusedAgentsQuery = queryOptions({
  queryKey: ['admin', 'refused-agents'] as const,
  queryFn: () => apiGet<RefusedAgentsAnswer>('admin/agents/refused/list'),
  refetchInterval: REFRESH_MS
})

export const dismissRefusedAgent = (id: number) => apiPost('admin/agents/refused/dismiss', { id })
