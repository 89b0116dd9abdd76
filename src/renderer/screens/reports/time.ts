// Unix seconds as people read them (local time), and the value format of <input type="datetime-local">.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

export function formatDateTime(unixSeconds: number): string {
  return dateTime.format(new Date(unixSeconds * 1000))
}

const pad = (n: number) => String(n).padStart(2, '0')

/** "2026-11-22T03:15" in local time, to the minute. */
export function toDateTimeLocal(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The input's local "YYYY-MM-DDTHH:mm" as unix seconds; undefined when empty or not a date. */
export function fromDateTimeLocal(value: string): number | undefined {
  if (!value) return undefined
  const ms = new Date(value).getTime()
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000)
}
