// Who is logged in (profile/get), loaded once per page and shared by every screen.
import { useSuspenseQuery } from '@tanstack/react-query'
import { apiGet, setCsrfToken } from './client'

export interface Profile {
  id: number
  uname: string
  fullname: string
  email: string
  admin: boolean
  /** May run service actions on at least one host. */
  serviceactions: boolean
  csrftoken: string
}

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
