// Ages as people read them at a glance: "12 s ago", "5 min ago", "3 h 10 min", "2 d 4 h".

/** The age of `then` at `now` (unix seconds), in its two largest units: "45 s", "5 min", "3 h 10 min", "2 d 4 h". */
export function formatAge(then: number, now: number): string {
  const seconds = Math.max(0, Math.floor(now - then))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`
}

const sameDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })
const otherDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** When `then` was, short: the time alone today, the date and time before. */
export function formatWhen(then: number, now: number): string {
  const day = (t: number) => new Date(t * 1000).toDateString()
  return (day(then) === day(now) ? sameDay : otherDay).format(new Date(then * 1000))
}
