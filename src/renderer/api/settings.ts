// Server settings (settings/get|update, administrators) and the caller's own profile (profile/update).
import { queryOptions } from '@tanstack/react-query'
import type { Profile, ServerSettings } from '../../shared/api/account'
import { apiGet, apiPost } from './client'

export type { ServerSettings } from '../../shared/api/account'
export type { Retention } from '../../shared/retention'

export interface SettingsChange {
  /** Absent: leave the stored port as it is. */
  port?: number
  sessiontimeout: number
  eventretention: number
  auditretention: number
  forecasthorizon: number
  retentionraw: number
  retentionminute: number
  retentionhour: number
  retentionday: number
}

export const settingsQuery = queryOptions({
  queryKey: ['settings'] as const,
  queryFn: () => apiGet<ServerSettings>('settings/get')
})

export const updateSettings = (change: SettingsChange) => apiPost<ServerSettings>('settings/update', { ...change })

export interface ProfileChange {
  fullname?: string
  email?: string
  /** IANA name; '' the server's zone */
  timezone?: string
  oldpassword?: string
  password?: string
}

export const updateProfile = (change: ProfileChange) => apiPost<Profile>('profile/update', { ...change })
