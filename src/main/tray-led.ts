// What the tray icon shows: the colour of the worst host LED (red, then orange, then green; gray when
// there are no hosts or all are gray) and a tooltip that counts them, or why there is nothing to show.
import type { LedCounts } from '../shared/desktop-api'
import { worstLed, type LedColor } from '../shared/worst-led'

export type ServerState = 'starting' | 'migrating' | 'running' | 'restarting' | 'stopped'

export interface TrayState {
  color: LedColor
  tooltip: string
}

export function trayState(productName: string, server: ServerState, leds: LedCounts | undefined): TrayState {
  if (server !== 'running' || !leds) {
    const why =
      server === 'restarting'
        ? 'the server is restarting'
        : server === 'stopped'
          ? 'the server is stopped'
          : server === 'migrating'
            ? 'upgrading the database (this can take a while)…'
            : 'starting…'
    return { color: 'gray', tooltip: `${productName}: ${why}` }
  }
  const total = leds.red + leds.orange + leds.green + leds.gray
  if (total === 0) return { color: 'gray', tooltip: `${productName}: no hosts yet` }
  const parts = (['red', 'orange', 'green', 'gray'] as const).filter((c) => leds[c] > 0).map((c) => `${leds[c]} ${c}`)
  return { color: worstLed(leds), tooltip: `${productName}: ${total} ${total === 1 ? 'host' : 'hosts'} (${parts.join(', ')})` }
}

/**
 * The tray image inside resources/tray. Windows and macOS draw tray icons at 16 points, Linux
 * panels at 22–32 pixels; Electron picks the @2x file beside it on high-density screens.
 */
export function trayIconFile(color: LedColor, platform: NodeJS.Platform): string {
  return `${color}-${platform === 'linux' ? 32 : 16}.png`
}
