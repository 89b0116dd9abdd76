// The hosts as a virtualised list: only the rows on screen exist in the DOM, and rows are fetched a
// page at a time (status/hosts/list with startindex/results) for the pages the viewport touches, so
// 10,000 hosts cost what 40 rows cost. Each row is a link to the host, reachable with Tab.
import { Box, Skeleton, Text, UnstyledButton } from '@mantine/core'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import { hostPageQuery, type HostFilter, type HostSortKey, type HostStatusEntry, type SortDir } from '../../api/status'
import { ErrorNote } from '../../components/error-note'
import classes from './host-table.module.css'
import { LedDot } from './led-dot'

const PAGE_SIZE = 100
const ROW_HEIGHT = 44
const GRID = '56px minmax(140px, 2fr) 80px 80px 90px minmax(160px, 3fr) 110px'

const columns: { key: HostSortKey | 'heartbeat'; label: string; align?: 'right' }[] = [
  { key: 'led', label: 'LED' },
  { key: 'hostname', label: 'Host' },
  { key: 'events', label: 'Events', align: 'right' },
  { key: 'cpu', label: 'CPU', align: 'right' },
  { key: 'mem', label: 'Memory', align: 'right' },
  { key: 'status', label: 'Status' },
  { key: 'heartbeat', label: 'Heartbeat' }
]

interface Props {
  filter: HostFilter
  onSort: (sort: HostSortKey, dir: SortDir) => void
  /** Shown instead of the list when nothing matches. */
  empty: React.ReactNode
}

export function firstHostPageQuery(filter: HostFilter) {
  return hostPageQuery(filter, 0, PAGE_SIZE)
}

export function HostTable({ filter, onSort, empty }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const first = useQuery(firstHostPageQuery(filter))
  const total = first.data?.totalRecords ?? 0
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10
  })
  // Another filter or order is another list: start it at its top.
  const filterKey = JSON.stringify(filter)
  useEffect(() => { scroller.current?.scrollTo({ top: 0 }) }, [filterKey])
  const items = virtualizer.getVirtualItems()
  const pages = [...new Set(items.map((item) => Math.floor(item.index / PAGE_SIZE)))].filter((p) => p > 0)
  const later = useQueries({ queries: pages.map((p) => hostPageQuery(filter, p, PAGE_SIZE)) })
  const pageRows = new Map<number, HostStatusEntry[]>([[0, first.data?.records ?? []]])
  pages.forEach((p, i) => { if (later[i].data) pageRows.set(p, later[i].data!.records) })
  const failed = first.error ?? later.find((q) => q.error)?.error

  if (first.isPending) return <Skeleton height={ROW_HEIGHT * 6} />
  if (first.isError) return <ErrorNote error={first.error} title="The hosts could not be loaded" />
  if (total === 0) return <>{empty}</>
  return (
    <Box>
      <ErrorNote error={failed} title="Some hosts could not be loaded" />
      <Text size="sm" c="dimmed" mb="xs" data-testid="host-count">{total.toLocaleString()} host{total === 1 ? '' : 's'}</Text>
      <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
        <SortHeader filter={filter} onSort={onSort} />
        <div ref={scroller} style={{ height: `min(${total * ROW_HEIGHT}px, max(320px, calc(100vh - 290px)))`, overflowY: 'auto', contain: 'strict' }}
          role="list" aria-label="Hosts" data-testid="hosts-list" data-total={total}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const host = pageRows.get(Math.floor(item.index / PAGE_SIZE))?.[item.index % PAGE_SIZE]
              return (
                <div key={item.key} role="listitem"
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
                  {host ? <HostRow host={host} /> : <Skeleton height={ROW_HEIGHT - 12} m={6} aria-label="Loading host" />}
                </div>
              )
            })}
          </div>
        </div>
      </Box>
    </Box>
  )
}

function SortHeader({ filter, onSort }: { filter: HostFilter; onSort: Props['onSort'] }) {
  return (
    <Box style={{ display: 'grid', gridTemplateColumns: GRID, gap: 8, alignItems: 'center', padding: '8px 12px', borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      {columns.map((c) => {
        if (c.key === 'heartbeat') return <Text key={c.key} size="sm" fw={700}>{c.label}</Text>
        const key = c.key
        const active = filter.sort === key
        const next: SortDir = active && filter.dir === 'asc' ? 'desc' : 'asc'
        return (
          <UnstyledButton key={key} onClick={() => onSort(key, next)} style={{ textAlign: c.align ?? 'left' }}
            aria-label={`Sort by ${c.label}${active ? `, now ${filter.dir === 'asc' ? 'ascending' : 'descending'}` : ''}`}>
            <Text size="sm" fw={700} component="span">{c.label}{active ? (filter.dir === 'asc' ? ' ▲' : ' ▼') : ''}</Text>
          </UnstyledButton>
        )
      })}
    </Box>
  )
}

const percent = (n: number) => `${n.toLocaleString(undefined, { maximumFractionDigits: 1 })} %`

/** Plain elements and CSS classes: the list renders dozens of rows at once, so each row stays cheap. */
function HostRow({ host }: { host: HostStatusEntry }) {
  const dead = host.heartbeat === 0
  return (
    <Link to="/hosts/$hostId" params={{ hostId: String(host.id) }} data-host-row={host.hostname} className={classes.row}
      style={{ gridTemplateColumns: GRID }}>
      <LedDot led={host.led} />
      <span className={classes.name}>{host.hostname}</span>
      <span className={classes.number}>{host.events.toLocaleString()}</span>
      <span className={classes.number}>{percent(host.cpu)}</span>
      <span className={classes.number}>{percent(host.mem)}</span>
      <span className={classes.text} title={host.status}>{host.status}</span>
      <span className={dead ? classes.dead : classes.alive}>{dead ? 'No report' : 'OK'}</span>
    </Link>
  )
}
