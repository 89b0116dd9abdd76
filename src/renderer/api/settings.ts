// Server settings (settings/get|update, administrators) and the caller's own profile (profile/update).
import { queryOptions } from '@tanstack/react-query'
import type { Retention } from '../../shared/retention'
import { apiGet, apiPost } from './client'
import type { Profile } from './profile'

export interface ServerSettings {
  /** The port stored for the next start (used when neither --port nor OVERSEER_PORT chooses one); null: none. */
  port: number | null
  defaultport: number
  /** The port the server listens on now. */
  listeningport: number | null
  urls: string[]
  sessiontimeout: number
  retention: Retention
  limits: { port: { min: number; max: number }; sessiontimeout: { min: number; max: number } }
}

export interface SettingsChange {
  /** Absent: leave the stored port as it is. */
  port?: number
  sessiontimeout: number
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
  oldpassword?: string
  password?: string
}

export const updateProfile = (change: ProfileChange) => apiPost<Profile>('profile/update', { ...change })
