// Decides what the console window may load and ask for. The window shows only the local server's
// origin; links elsewhere open in the OS browser, anything else (file:, javascript:, data:, custom
// schemes) is refused, and so are web permission requests.

export type NavigationDecision = 'allow' | 'open-external' | 'deny'

/** Schemes handed to the OS when the console links to them (documentation, mail to a colleague). */
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:'])

/** Permissions the console may use: writing to the clipboard (copying an agent's `set mmonit` line). */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write'])

function parse(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/** True when `url` is on exactly `origin` (scheme, host and port), e.g. "http://127.0.0.1:8080". */
export function isSameOrigin(url: string | undefined, origin: string): boolean {
  const parsed = url === undefined ? undefined : parse(url)
  return parsed !== undefined && parsed.origin === origin
}

/** For the window's own navigations (will-navigate, will-redirect) and new-window requests alike. */
export function decideNavigation(url: string, origin: string): NavigationDecision {
  const parsed = parse(url)
  if (!parsed) return 'deny'
  if (parsed.origin === origin) return 'allow'
  // Credentials in a link would be handed to the browser in clear view: refuse instead.
  if (parsed.username || parsed.password) return 'deny'
  return EXTERNAL_SCHEMES.has(parsed.protocol) ? 'open-external' : 'deny'
}

/** Whether a web permission (camera, geolocation, notifications…) requested by `requestingUrl` is granted. */
export function isPermissionGranted(permission: string, requestingUrl: string | undefined, origin: string): boolean {
  return GRANTED_PERMISSIONS.has(permission) && isSameOrigin(requestingUrl, origin)
}
