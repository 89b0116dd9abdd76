// Who is logged in (profile/get), loaded once per page and shared by every screen.
import { useSuspenseQuery } from '@tanstack/react-query'
import type { Profile } from '../../shared/api/account'
import { apiGet, setCsrfToken } from './client'

export type { Profile } from '../../shared/api/account'

export const profileQuery = {
  queryKey: ['profile'] as const,
  queryFn: async () => {
    const profile = await apiGet<Profile>('profile/get')
    setCsrfToken(profile.csrftoken)
    return profile
  },
  staleTime: Infinity
}

export function useProfile(): Profile {
  return useSuspenseQuery(profileQuery).data
}
