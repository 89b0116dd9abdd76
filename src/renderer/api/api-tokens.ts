// Personal API tokens: the caller's own (tokens/*) and, for administrators, everyone's (admin/tokens/*).
import { queryOptions } from '@tanstack/react-query'
import type { ApiToken, ApiTokenScope, CreatedApiToken } from '../../shared/api/api-tokens'
import { apiGet, apiPost } from './client'

export type { ApiToken, ApiTokenScope, CreatedApiToken } from '../../shared/api/api-tokens'

/** Whose tokens a list shows: the caller's own, or every user's (administrators). */
export type TokenOwners = 'own' | 'all'

export const apiTokensQuery = (owners: TokenOwners) =>
  queryOptions({
    queryKey: ['api-tokens', owners] as const,
    queryFn: async () => (await apiGet<{ tokens: ApiToken[] }>(owners === 'own' ? 'tokens/list' : 'admin/tokens/list')).tokens
  })

export const createApiToken = (wanted: { name: string; scope: ApiTokenScope; expires?: number }) =>
  apiPost<CreatedApiToken>('tokens/create', wanted)

export const revokeApiToken = (id: number, owners: TokenOwners) =>
  apiPost(owners === 'own' ? 'tokens/revoke' : 'admin/tokens/revoke', { id })
