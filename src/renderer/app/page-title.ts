// The browser tab of every screen: its name, with how many hosts fail in front ("(3) Hosts — Overseer"),
// and a favicon in the colour of the worst host LED, as the desktop tray's icon (shared/worst-led).
import type { HostSummary } from '../../shared/api/status'
import type { LedCounts } from '../../shared/desktop-api'
import type { LedColor } from '../../shared/worst-led'

const PRODUCT = 'Overseer'

/** Screens by path, most specific first; a path none matches is named by the product alone. */
const screens: readonly [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^\/$/, () => 'Dashboard'],
  [/^\/hosts\/[^/]+\/services\/([^/]+)$/, (m) => `${decodeURIComponent(m[1])} (service)`],
  [/^\/hosts\/[^/]+$/, () => 'Host'],
  [/^\/hosts$/, () => 'Hosts'],
  [/^\/services$/, () => 'Services'],
  [/^\/events\/[^/]+$/, () => 'Event'],
  [/^\/events$/, () => 'Events'],
  [/^\/uptime\/[^/]+$/, () => 'Host uptime'],
  [/^\/uptime$/, () => 'Uptime'],
  [/^\/admin\/hosts\/[^/]+$/, () => 'Edit host'],
  [/^\/admin\/hosts$/, () => 'Host administration'],
  [/^\/admin\/pulled-agents$/, () => 'Pulled agents'],
  [/^\/admin\/users$/, () => 'Users'],
  [/^\/admin\/roles$/, () => 'Roles'],
  [/^\/admin\/single-sign-on$/, () => 'Single sign-on'],
  [/^\/admin\/groups$/, () => 'Host groups'],
  [/^\/admin\/alerts$/, () => 'Alerts'],
  [/^\/admin\/audit$/, () => 'Audit log'],
  [/^\/admin\/import$/, () => 'Import from M/Monit'],
  [/^\/settings$/, () => 'Settings'],
  [/^\/setup$/, () => 'Setup']
]

export function screenName(path: string): string | undefined {
  for (const [pattern, name] of screens) {
    const m = path.match(pattern)
    if (m) return name(m)
  }
  return undefined
}

/** "(3) Hosts — Overseer": `failing` hosts in front when there are any. */
export function pageTitle(screen: string | undefined, failing: number): string {
  const count = failing > 0 ? `(${failing.toLocaleString()}) ` : ''
  return `${count}${screen ? `${screen} — ` : ''}${PRODUCT}`
}

/**
 * Hosts per LED colour from status/hosts/summary's categories (compat 6.3 → 6.1): failed and "services
 * failed" are red, "some services failed/unmonitored" orange (the server shows a host whose every
 * service is unmonitored gray; the summary cannot tell it apart), ok green, inactive and ignored gray.
 */
export function ledCounts(summary: HostSummary): LedCounts {
  const n = Object.fromEntries(summary.status.map((c) => [c.label, c.data])) as Record<HostSummary['status'][number]['label'], number>
  return {
    red: (n.failed ?? 0) + (n['services failed'] ?? 0),
    orange: n['some services failed/unmonitored'] ?? 0,
    green: n.ok ?? 0,
    gray: (n.inactive ?? 0) + (n.ignored ?? 0)
  }
}

const fill: Record<LedColor, string> = { red: '#e03131', orange: '#f76707', green: '#2f9e44', gray: '#868e96' }

/** A round LED of that colour, as an SVG data URL for `<link rel="icon">`. */
export function faviconUrl(color: LedColor): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" fill="${fill[color]}" stroke="#fff" stroke-width="3"/></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}
