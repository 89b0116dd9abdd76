// Keeps the tab's title and favicon in step with the screen and with the hosts' summary (live: the
// 'status' key refreshes it), so a failure shows in a background tab.
import { useQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { worstLed } from '../../shared/worst-led'
import { hostSummaryQuery } from '../api/status'
import { faviconUrl, ledCounts, pageTitle, screenName } from './page-title'

export function usePageTitle(): void {
  const path = useRouterState({ select: (s) => s.location.pathname })
  const summary = useQuery(hostSummaryQuery)
  const leds = summary.data ? ledCounts(summary.data) : undefined
  const failing = leds?.red ?? 0
  const color = leds ? worstLed(leds) : 'gray'
  useEffect(() => {
    document.title = pageTitle(screenName(path), failing)
  }, [path, failing])
  useEffect(() => {
    let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (!icon) {
      icon = document.createElement('link')
      icon.rel = 'icon'
      document.head.append(icon)
    }
    icon.href = faviconUrl(color)
    icon.dataset.led = color
  }, [color])
}
