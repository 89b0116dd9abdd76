// First-run setup's "Import from M/Monit": setup ends before anyone is logged in, so the choice waits in
// this tab's sessionStorage through the login form, and the console opens the import once an
// administrator is in (as first-channel.ts does for a first alert channel).
import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useProfile } from '../api/profile'

const KEY = 'overseer.firstImport'

export function rememberFirstImport(): void {
  try {
    sessionStorage.setItem(KEY, 'mmonit')
  } catch {
    // Storage refused (a private mode): Administration › Import from M/Monit is still there.
  }
}

function takeFirstImport(): boolean {
  try {
    const chosen = sessionStorage.getItem(KEY) === 'mmonit'
    sessionStorage.removeItem(KEY)
    return chosen
  } catch {
    return false
  }
}

/** In the console frame: once, an administrator who chose the import at setup lands on it. */
export function useFirstImportOffer(): void {
  const profile = useProfile()
  const navigate = useNavigate()
  useEffect(() => {
    if (profile.admin && takeFirstImport()) void navigate({ to: '/admin/import', search: { firstrun: true } })
  }, [profile.admin, navigate])
}
