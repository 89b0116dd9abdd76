// Where the shell points the console window. The console uses hash routing, so a route is a fragment
// of the server's origin.

export function consoleOrigin(port: number, https = false): string {
  return `${https ? 'https' : 'http'}://127.0.0.1:${port}`
}

export function homeUrl(origin: string): string {
  return `${origin}/`
}

/** The first-run screen (no user exists yet): create the administrator and the agents' account. */
export function setupUrl(origin: string): string {
  return `${origin}/#/setup`
}

export function eventUrl(origin: string, eventId: number): string {
  return `${origin}/#/events/${eventId}`
}

export function eventsUrl(origin: string): string {
  return `${origin}/#/events`
}
