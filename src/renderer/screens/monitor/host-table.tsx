// The hosts as a virtualised list: only the rows on screen exist in the DOM, and rows are fetched a
// page at a time (status/hosts/overview with startindex/results) for the pages the viewport touches, so
// 10,000 hosts cost what 40 rows cost. Each row is a link to the host, reachable with Tab. On a phone
// the rows are cards, so the page is never wider than the screen. Back to the list restores its scroll.
import { Box, Checkbox, Skeleton, Text, UnstyledButton } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { useQueries, useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { hostOverviewPageQuery, type HostOverviewEntry, type HostOverviewFilter, type OverviewSortKey } from '../../api/overview'
import type { SortDir } from '../../api/status'
import { ErrorNote } from '../../components/error-note'
import { useNow } from '../../components/use-now'
import { firstHostPageQuery, HOST_PAGE_SIZE } from './first-pages'
import { HostRow, ROW_GRID } from './host-row'
import classes from './host-table.module.css'

const ROW_HEIGHT = 44
const CARD_HEIGHT = 84
/** Phones and narrow windows get cards. */
export const COMPACT_QUERY = '(max-width: 640px)'

const columns: { key: OverviewSortKey | null; label: string; align?: 'right' }[] = [
  { key: 'attention', label: 'LED' },
  { key: 'hostname', label: 'Host' },
  { key: null, label: 'Failing services' },
  { key: null, label: 'Since', align: 'right' },
  { key: null, label: 'Last 24 h' },
  { key: 'cpu', label: 'CPU', align: 'right' },
  { key: 'mem', label: 'Memory', align: 'right' },
  { key: 'events', label: 'Events', align: 'right' },
  { key: 'lastreport', label: 'Last report' }
]

/** Hosts chosen for a bulk action (administrators only). */
export interface HostSelection {
  ids: ReadonlySet<number>
  toggle: (id: number) => void
  setMany: (ids: readonly number[], on: boolean) => void
}

interface Props {
  filter: HostOverviewFilter
  onSort: (sort: OverviewSortKey, dir: SortDir) => void
  selection?: HostSelection
  /** Shown instead of the list when nothing matches. */
  empty: React.ReactNode
}

/** Where each list (by filter) was scrolled to, for Back from a host: the session's memory, not the URL's. */
const scrollOffsets = new Map<string, number>()

export function HostTable({ filter, onSort, selection, empty }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const compact = useMediaQuery(COMPACT_QUERY) ?? false
  const now = useNow()
  const first = useQuery(firstHostPageQuery(filter))
  const total = first.data?.totalRecords ?? 0
  const rowHeight = compact ? CARD_HEIGHT : ROW_HEIGHT
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 10
  })
  useEffect(() => {
    virtualizer.measure()
  }, [virtualizer, rowHeight])
  const filterKey = JSON.stringify(filter)
  useScrollMemory(scroller, filterKey, total > 0)
  const items = virtualizer.getVirtualItems()
  const pages = [...new Set(items.map((item) => Math.floor(item.index / HOST_PAGE_SIZE)))].filter((p) => p > 0)
  const later = useQueries({ queries: pages.map((p) => hostOverviewPageQuery(filter, p, HOST_PAGE_SIZE)) })
  const pageRows = new Map<number, HostOverviewEntry[]>([[0, first.data?.records ?? []]])
  pages.forEach((p, i) => {
    if (later[i].data) pageRows.set(p, later[i].data!.records)
  })
  const failed = first.error ?? later.find((q) => q.error)?.error

  if (first.isPending) return <Skeleton height={ROW_HEIGHT * 6} />
  if (first.isError) return <ErrorNote error={first.error} title="The hosts could not be loaded" />
  if (total === 0) return <>{empty}</>
  const loaded = [...pageRows.values()].flat()
  return (
    <Box>
      <ErrorNote error={failed} title="Some hosts could not be loaded" />
      <Text size="sm" c="dimmed" mb="xs" data-testid="host-count">
        {total.toLocaleString()} host{total === 1 ? '' : 's'}
      </Text>
      <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}>
        <Header filter={filter} onSort={onSort} compact={compact} selection={selection} loaded={loaded} />
        <div
          ref={scroller}
          style={{ height: `min(${total * rowHeight}px, max(320px, calc(100vh - 290px)))`, overflowY: 'auto', contain: 'strict' }}
          role="list"
          aria-label="Hosts"
          data-testid="hosts-list"
          data-total={total}
          data-layout={compact ? 'cards' : 'rows'}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const host = pageRows.get(Math.floor(item.index / HOST_PAGE_SIZE))?.[item.index % HOST_PAGE_SIZE]
              const chosen = host !== undefined && selection?.ids.has(host.id)
              return (
                <div
                  key={item.key}
                  role="listitem"
                  className={classes.line}
                  data-selected={chosen || undefined}
                  data-plain={!selection || undefined}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${item.start}px)` }}>
                  {host && selection ? (
                    <span className={classes.check}>
                      <Checkbox
                        size="xs"
                        checked={chosen}
                        onChange={() => selection.toggle(host.id)}
                        aria-label={`Select ${host.hostname}`}
                      />
                    </span>
                  ) : (
                    <span />
                  )}
                  {host ? (
                    <HostRow host={host} now={now} compact={compact} />
                  ) : (
                    <Skeleton height={rowHeight - 12} m={6} aria-label="Loading host" />
                  )}
                </div>
              )
            })}
          </div>
        </div>
      </Box>
    </Box>
  )
}

/**
 * The list's scroll offset is remembered per filter as the user scrolls, and put back when the list
 * returns with its rows (Back from a host). Another filter or order is another list: it starts at its top.
 */
function useScrollMemory(scroller: React.RefObject<HTMLDivElement | null>, key: string, ready: boolean) {
  const restored = useRef<string | null>(null)
  useLayoutEffect(() => {
    const el = scroller.current
    if (!ready || !el || restored.current === key) return
    restored.current = key
    el.scrollTop = scrollOffsets.get(key) ?? 0
  }, [scroller, key, ready])
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const remember = () => {
      scrollOffsets.set(key, el.scrollTop)
    }
    el.addEventListener('scroll', remember, { passive: true })
    return () => el.removeEventListener('scroll', remember)
  }, [scroller, key, ready])
}

interface HeaderProps {
  filter: HostOverviewFilter
  onSort: Props['onSort']
  compact: boolean
  selection?: HostSelection
  loaded: readonly HostOverviewEntry[]
}

function Header({ filter, onSort, compact, selection, loaded }: HeaderProps) {
  const ids = loaded.map((h) => h.id)
  const chosen = ids.filter((id) => selection?.ids.has(id)).length
  const sortButton = (key: OverviewSortKey, label: string, align?: 'right') => {
    const active = filter.sort === key
    const next: SortDir = active && filter.dir === 'asc' ? 'desc' : 'asc'
    return (
      <UnstyledButton
        key={key}
        onClick={() => onSort(key, next)}
        style={{ textAlign: align ?? 'left' }}
        aria-label={`Sort by ${label === 'LED' ? 'LED (severity)' : label}${active ? `, now ${filter.dir === 'asc' ? 'ascending' : 'descending'}` : ''}`}>
        <Text size="sm" fw={700} component="span">
          {label}
          {active ? (filter.dir === 'asc' ? ' ▲' : ' ▼') : ''}
        </Text>
      </UnstyledButton>
    )
  }
  return (
    <Box className={classes.line} style={{ height: 'auto', padding: '8px 0' }} data-plain={!selection || undefined}>
      {selection ? (
        <span className={classes.check}>
          <Checkbox
            size="xs"
            aria-label="Select every host loaded"
            checked={chosen > 0 && chosen === ids.length}
            indeterminate={chosen > 0 && chosen < ids.length}
            onChange={() => selection.setMany(ids, chosen < ids.length)}
          />
        </span>
      ) : (
        <span />
      )}
      {compact ? (
        <Box style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <Text size="sm" c="dimmed">
            Sort:
          </Text>
          {sortButton('attention', 'Severity')}
          {sortButton('hostname', 'Host')}
          {sortButton('lastreport', 'Last report')}
        </Box>
      ) : (
        <Box style={{ display: 'grid', gridTemplateColumns: ROW_GRID, gap: 8, paddingRight: 12, alignItems: 'center' }}>
          {columns.map((c) =>
            c.key === null ? (
              <Text key={c.label} size="sm" fw={700} ta={c.align}>
                {c.label}
              </Text>
            ) : (
              sortButton(c.key, c.label, c.align)
            )
          )}
        </Box>
      )}
    </Box>
  )
}
