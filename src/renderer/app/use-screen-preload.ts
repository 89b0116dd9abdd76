// Once a signed-in console has shown its first screen, the browser loads every other screen's code while
// idle: a screen first opened during a server outage then needs nothing from the server (a chunk that
// could not be fetched made the router reload the page, into the browser's own error page). Only here,
// under the signed-in frame: setup and the login page navigate away soon, which would abort the loads.
// `data-screens-loaded` on <html> says when all have arrived (e2e/outage.spec.ts waits for it).
import { useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'

export function useScreenPreload(): void {
  const router = useRouter()
  useEffect(() => {
    const idle = requestIdleCallback(() => {
      const chunks = Object.values(router.routesById).map((route) => router.loadRouteChunk(route)?.catch(() => undefined))
      void Promise.all(chunks).then(() => {
        document.documentElement.dataset.screensLoaded = 'true'
      })
    })
    return () => cancelIdleCallback(idle)
  }, [router])
}
