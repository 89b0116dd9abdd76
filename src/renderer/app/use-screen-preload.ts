// Once a signed-in console's live stream is open, the browser loads every other screen's code while
// idle: a screen first opened during a server outage then needs nothing from the server (a chunk that
// could not be fetched made the router reload the page, into the browser's own error page). Not before:
// setup and the login page navigate away, aborting the loads (e2e/before-login.spec.ts), and the stream
// opens only with a session. `data-screens-loaded` on <html> says when all have arrived
// (e2e/outage.spec.ts waits for it).
import { useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'
import { onLiveState } from '../live/live-updates'

export function useScreenPreload(): void {
  const router = useRouter()
  useEffect(() => {
    let idle: number | undefined
    const stopListening = onLiveState((state) => {
      if (state !== 'live' || idle !== undefined) return
      idle = requestIdleCallback(() => {
        const chunks = Object.values(router.routesById).map((route) => router.loadRouteChunk(route)?.catch(() => undefined))
        void Promise.all(chunks).then(() => {
          document.documentElement.dataset.screensLoaded = 'true'
        })
      })
    })
    return () => {
      stopListening()
      if (idle !== undefined) cancelIdleCallback(idle)
    }
  }, [router])
}
