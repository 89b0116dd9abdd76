// A host's last 24 hours in the hosts list, an hour per cell: green up, red a service down, dark grey the
// host silent, pale before its first report. Its label says when, not only how many hours: "a service
// down 09:12–11:12, silent 20:12–now". One element painted by a gradient, not 24: the list shows dozens
// of rows.
import classes from './host-table.module.css'

const TREND_COLOURS = [
  'var(--mantine-color-green-5)',
  'var(--mantine-color-red-6)',
  'var(--mantine-color-gray-7)',
  'var(--mantine-color-default-border)'
]
const TREND_WORDS: Record<number, string> = { 1: 'a service down', 2: 'silent' }
/** Pixels per hour, the last one a gap between cells. */
export const TREND_CELL = 5
const HOUR = 3600

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })

/**
 * The trend in words: each run of failing hours with its clock times (cells end at `now`, unix seconds),
 * oldest first.
 */
export function trendSummary(trend: readonly number[], now: number): string {
  const spans: string[] = []
  const from = now - trend.length * HOUR
  for (let c = 0; c < trend.length; c++) {
    const state = trend[c]!
    if (!TREND_WORDS[state]) continue
    let end = c
    while (trend[end + 1] === state) end++
    const until = end === trend.length - 1 ? 'now' : clock.format((from + (end + 1) * HOUR) * 1000)
    spans.push(`${TREND_WORDS[state]} ${clock.format((from + c * HOUR) * 1000)}–${until}`)
    c = end
  }
  return spans.length === 0 ? 'No failure in the last 24 hours' : `Last 24 hours: ${spans.join(', ')}`
}

export function TrendBar({ trend, now }: { trend: number[]; now: number }) {
  const stops = trend.map((cell, i) => {
    const [start, end] = [i * TREND_CELL, (i + 1) * TREND_CELL]
    return `${TREND_COLOURS[cell]} ${start}px ${end - 1}px, transparent ${end - 1}px ${end}px`
  })
  const label = trendSummary(trend, now)
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={classes.trend}
      data-trend={trend.join('')}
      style={{ width: trend.length * TREND_CELL, background: `linear-gradient(to right, ${stops.join(', ')})` }}
    />
  )
}
