// One host of the hosts list: a grid row on a desk, a card on a phone. What fails (services by name,
// since when), how fresh the figures are ("last report 12 s ago"), and figures of a silent host greyed
// as the last known values. Plain elements and CSS classes: the list renders dozens of rows at once.
import { Link } from '@tanstack/react-router'
import type { FailingService, HostOverviewEntry } from '../../api/overview'
import { formatAge } from '../../components/relative-time'
import classes from './host-table.module.css'
import { LedDot } from './led-dot'

/** The desk row's columns after the selection box: LED, host, failing, since, last 24 h, CPU, memory, events, last report. */
export const ROW_GRID = '58px minmax(140px, 2fr) minmax(160px, 3fr) 72px 76px 64px 72px 56px 104px'

const percent = (n: number) => `${n.toLocaleString(undefined, { maximumFractionDigits: 1 })} %`

interface RowProps {
  host: HostOverviewEntry
  now: number
  compact: boolean
}

/** A silent host's figures are its last report's: shown, but greyed and titled as such. */
function staleTitle(host: HostOverviewEntry, now: number): string | undefined {
  return host.heartbeat === 0 ? `Last known value, reported ${formatAge(host.lastreport, now)} ago` : undefined
}

export function HostRow({ host, now, compact }: RowProps) {
  const silent = host.heartbeat === 0
  const stale = staleTitle(host, now)
  const figures = silent || host.led === 3 ? classes.stale : classes.number
  const link = {
    to: '/hosts/$hostId',
    params: { hostId: String(host.id) },
    'data-host-row': host.hostname,
    'data-silent': silent || undefined
  } as const
  if (compact) {
    return (
      <Link {...link} className={classes.card}>
        <span className={classes.cardLine}>
          <LedDot led={host.led} host />
          <span className={classes.name}>{host.hostname}</span>
          <LastReport host={host} now={now} />
        </span>
        <span className={classes.cardLine}>
          <Failing host={host} now={now} />
        </span>
        <span className={classes.cardFigures} title={stale}>
          <span className={figures}>CPU {percent(host.cpu)}</span>
          <span className={figures}>Mem {percent(host.mem)}</span>
          <span>
            {host.events.toLocaleString()} event{host.events === 1 ? '' : 's'}
          </span>
          {host.since !== null && (
            <span>
              {silent ? 'silent' : 'failing'} for {formatAge(host.since, now)}
            </span>
          )}
        </span>
      </Link>
    )
  }
  return (
    <Link {...link} className={classes.row} style={{ gridTemplateColumns: ROW_GRID }}>
      <LedDot led={host.led} host />
      <span className={classes.name} title={host.hostname}>
        {host.hostname}
      </span>
      <Failing host={host} now={now} />
      <span className={classes.since}>{host.since === null ? '' : formatAge(host.since, now)}</span>
      <TrendBar trend={host.trend} />
      <span className={figures} title={stale}>
        {percent(host.cpu)}
      </span>
      <span className={figures} title={stale}>
        {percent(host.mem)}
      </span>
      <span className={classes.number}>{host.events.toLocaleString()}</span>
      <LastReport host={host} now={now} />
    </Link>
  )
}

const TREND_COLOURS = [
  'var(--mantine-color-green-5)',
  'var(--mantine-color-red-6)',
  'var(--mantine-color-gray-7)',
  'var(--mantine-color-default-border)'
]
const TREND_WORDS = ['up', 'a service down', 'silent']
const CELL = 3

/**
 * The last 24 hours, an hour per cell: green up, red a service down, dark grey the host silent, pale
 * before its first report. One element painted by a gradient, not 24: the list shows dozens of rows.
 */
function TrendBar({ trend }: { trend: number[] }) {
  const stops = trend.map(
    (cell, i) => `${TREND_COLOURS[cell]} ${i * CELL}px ${i * CELL + CELL - 1}px, transparent ${i * CELL + CELL - 1}px ${(i + 1) * CELL}px`
  )
  const worst = Math.max(...trend.filter((cell) => cell === 1 || cell === 2), 0)
  const down = trend.filter((cell) => cell === 1 || cell === 2).length
  const label =
    down === 0 ? 'No failure in the last 24 hours' : `Last 24 hours: ${down} hour${down === 1 ? '' : 's'} with ${TREND_WORDS[worst]}`
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={classes.trend}
      data-trend={trend.join('')}
      style={{ width: trend.length * CELL, background: `linear-gradient(to right, ${stops.join(', ')})` }}
    />
  )
}

function LastReport({ host, now }: { host: HostOverviewEntry; now: number }) {
  if (host.lastreport === 0) return <span className={classes.dead}>never</span>
  const age = `${formatAge(host.lastreport, now)} ago`
  return host.heartbeat === 0 ? (
    <span className={classes.dead} title="No report within the expected time">
      {age}
    </span>
  ) : (
    <span className={classes.alive}>{age}</span>
  )
}

/** The failing services by name (red before orange); a host without one shows its status text. */
function Failing({ host, now }: { host: HostOverviewEntry; now: number }) {
  if (host.failing.length === 0) return <span className={classes.status}>{host.status}</span>
  const title = host.failing.map((s) => failingTitle(s, now)).join('\n')
  return (
    <span className={host.heartbeat === 0 ? `${classes.failing} ${classes.staleText}` : classes.failing} title={title}>
      {host.failing.map((s, i) => (
        <span key={s.name} className={s.led === 0 ? classes.red : classes.orange}>
          {i > 0 ? ', ' : ''}
          {s.name}
        </span>
      ))}
    </span>
  )
}

function failingTitle(s: FailingService, now: number): string {
  const state = s.led === 0 ? 'failing' : 'changed'
  return s.since === null ? `${s.name}: ${state}` : `${s.name}: ${state} for ${formatAge(s.since, now)}`
}
