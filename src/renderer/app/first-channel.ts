// First-run setup's optional "tell me when something fails": setup ends before anyone is logged in, so
// the choice waits in this tab's sessionStorage through the login form, and the console opens the new
// channel form of that type once an administrator is in.
import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useProfile } from '../api/profile'

const KEY = 'overseer.firstChannel'
export const FIRST_CHANNEL_TYPES = ['email', 'webhook'] as const
export type FirstChannelType = (typeof FIRST_CHANNEL_TYPES)[number]

export function rememberFirstChannel(type: FirstChannelType): void {
  try {
    sessionStorage.setItem(KEY, type)
  } catch {
    // Storage refused (a private mode): the offer is skipped, nothing else depends on it.
  }
}

function takeFirstChannel(): FirstChannelType | undefined {
  try {
    const type = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    return FIRST_CHANNEL_TYPES.find((t) => t === type)
  } catch {
    return undefined
  }
}

/** In the console frame: once, an administrator who chose a channel at setup lands on its form. */
export function useFirstChannelOffer(): void {
  const profile = useProfile()
  const navigate = useNavigate()
  useEffect(() => {
    if (!profile.admin) return
    const type = takeFirstChannel()
    if (type) void navigate({ to: '/admin/alerts', search: { new: type } })
  }, [profile.admin, navigate])
}
