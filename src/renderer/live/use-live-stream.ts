// The console frame's link to the server once a session exists: the live stream (never before login,
// where it would only get the login page), and after an outage a refresh of every query, so that
// figures catch up and the errors the outage caused go away without a reload.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { onReconnect } from './connection'
import { startLiveUpdates } from './live-updates'

export function useLiveStream(): void {
  const queryClient = useQueryClient()
  useEffect(() => startLiveUpdates(queryClient), [queryClient])
  useEffect(() => onReconnect(() => void queryClient.invalidateQueries()), [queryClient])
}
