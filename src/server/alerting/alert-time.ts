// Times in notifications as a person reads them at 3 a.m. (issue 28): in the recipient's time zone, with
// the zone's own abbreviation, "Fri 27 Nov 2026, 13:01:08 CET".
const formats = new Map<string, Intl.DateTimeFormat>()

/** The zone of the machine the server runs on (TZ, else the system's): the default of every recipient. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC'
}

/** Unix seconds in `timeZone` (an IANA name, checked when it was set: shared/time-zone.ts). */
export function formatWhen(unixSec: number, timeZone: string): string {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short'
    })
    // Zones are a few per server (the server's and its users'): the cache stays small.
    if (formats.size >= 64) formats.clear()
    formats.set(timeZone, format)
  }
  return format.format(new Date(unixSec * 1000))
}
