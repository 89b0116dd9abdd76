// One host of the hosts list: a grid row on a desk, a card on a phone. What fails (services by name,
// since when), how fresh the figures are ("last report 12 s ago"), and figures of a silent host greyed
// as the last known values. Plain elements and CSS classes: the list renders dozens of rows at once.
import { Link } from '@tanstack/react-router'
import type { FailingService, HostOverviewEntry } from '../../api/overview'
import { formatMuteEnd } from '../../components/muted-mark'
import { formatAge } from '../../components/relative-time'
import classes from './host-table.module.css'
import { LedDot } from './led-dot'
import { TREND_CELL, TrendBar } from './trend-bar'

/** The desk row's columns after the selection box: LED, host, failing, since, last 24 h, CPU, memory, events, last report. */
export const ROW_GRID = `58px minmax(140px, 2fr) minmax(160px, 3fr) 72px ${24 * TREND_CELL + 4}px 64px 72px 56px 104px`

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
          <Muted host={host} />
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
      <span className={classes.withMark}>
        <Muted host={host} />
        <Failing host={host} now={now} />
      </span>
      <span className={classes.since}>{host.since === null ? '' : formatAge(host.since, now)}</span>
      <TrendBar trend={host.trend} now={now} />
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

/** A muted host's mark, with when the mute ends: a muted host must not look like one that would page someone. */
function Muted({ host }: { host: HostOverviewEntry }) {
  if (host.muted === null) return null
  return (
    <span className={classes.muted} title={`Alerts muted until ${new Date(host.muted * 1000).toLocaleString()}`} data-testid="muted">
      muted until {formatMuteEnd(host.muted)}
    </span>
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
