// What "something fails" means wherever the console sums hosts up in one colour: the desktop tray's icon
// and the browser tab's favicon. The worst host LED wins: red, then orange, then green; gray when there
// are no hosts or all are gray.
import type { LedCounts } from './desktop-api'

export type LedColor = keyof LedCounts

const SEVERITY: readonly LedColor[] = ['red', 'orange', 'green']

export function worstLed(leds: LedCounts): LedColor {
  return SEVERITY.find((color) => leds[color] > 0) ?? 'gray'
}
