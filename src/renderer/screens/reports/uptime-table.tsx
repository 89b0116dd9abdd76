// Uptime items (hosts or services) in a sortable table that renders only the rows in view, so 10,000
// hosts scroll as smoothly as ten.
import { Badge, Group, Table, Text } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState, type ReactNode } from 'react'
import type { UptimeItem } from '../../api/uptime'
import stacked from '../../components/stacked-table.module.css'
import { SortHeader } from './sort-header'
import { UptimeBar } from './uptime-bar'

type UptimeSortKey = 'name' | 'uptime' | 'servicesup' | 'events'
type SortDir = 'asc' | 'desc'

const ROW_HEIGHT = 41
const UNKNOWN_HINT = 'Not counted as up or down: the server was not running, or the host had not reported yet'
const OVERSCAN = 12

interface UptimeTableProps {
  items: UptimeItem[]
  /** "Host" or "Service" */
  nameHeader: string
  /** The name cell: a link for hosts, plain text for services. */
  renderName: (item: UptimeItem) => ReactNode
  renderEvents: (item: UptimeItem) => ReactNode
  /** Word for an item that is not being watched ("Inactive", "Not monitored"). */
  inactiveLabel: string
  /** Keeps the given order until a column is chosen (services come in the agent's order). */
  initialSort?: UptimeSortKey
  /** The list scrolls within this height, rendering only the rows in view; without it, every row shows. */
  maxHeight?: string
}

export function UptimeTable({ items, nameHeader, renderName, renderEvents, inactiveLabel, initialSort, maxHeight }: UptimeTableProps) {
  const [sort, setSort] = useState<{ key: UptimeSortKey | undefined; dir: SortDir }>({ key: initialSort, dir: 'asc' })
  const sorted = useMemo(() => sortItems(items, sort.key, sort.dir), [items, sort])
  const scroller = useRef<HTMLDivElement>(null)
  const rows = useVirtualizer({
    count: sorted.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: OVERSCAN,
    enabled: maxHeight !== undefined
  })
  const visible = maxHeight === undefined
    ? sorted.map((_, index) => ({ index, start: 0, end: 0 }))
    : rows.getVirtualItems()
  const padTop = maxHeight !== undefined && visible.length ? visible[0].start : 0
  const padBottom = maxHeight !== undefined && visible.length ? rows.getTotalSize() - visible[visible.length - 1].end : 0
  const header = { sort: sort.key, dir: sort.dir, onSort: (key: UptimeSortKey, dir: SortDir) => setSort({ key, dir }) }
  // Hosts have two figures (issue 28): their agent reporting (`uptime`) and their services up.
  const hosts = items.some((i) => i.servicesup !== undefined)
  const uptimeLabel = hosts ? 'Agent reporting' : 'Uptime'
  return (
    // Scrolls sideways by itself between a phone (where a row is a card) and a desk, rather than widening the page.
    // A height before any row is measured: a scroller of none would render no row (as on a phone, where
    // the stacked table has no header row to give it one), and so keep none.
    <div
      ref={scroller}
      style={maxHeight === undefined ? { overflowX: 'auto' } : { maxHeight, minHeight: Math.min(sorted.length * ROW_HEIGHT, 360), overflow: 'auto' }}>
      <Table stickyHeader highlightOnHover verticalSpacing={8} className={stacked.table} style={{ minWidth: 640 }}
        aria-label={`Uptime per ${nameHeader.toLowerCase()}`}
        aria-rowcount={sorted.length + 1}>
        <Table.Thead>
          <Table.Tr>
            <SortHeader column="name" {...header}>{nameHeader}</SortHeader>
            <SortHeader column="uptime" w={220} {...header}>{uptimeLabel}</SortHeader>
            {hosts && <SortHeader column="servicesup" w={220} {...header}>Services up</SortHeader>}
            <Table.Th w={200}>Downtime</Table.Th>
            <SortHeader column="events" firstDir="desc" w={100} {...header}>Events</SortHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
          {visible.map((row) => {
            const item = sorted[row.index]
            return (
              // Measured: a row is taller on a phone, where it is a card.
              <Table.Tr key={`${item.id}-${item.name}`} h={ROW_HEIGHT} ref={maxHeight === undefined ? undefined : rows.measureElement} data-index={row.index}
                aria-rowindex={row.index + 2} data-item={item.name}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {renderName(item)}
                    {item.active === 0 && <Badge size="xs" color="gray" variant="light">{inactiveLabel}</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td data-label={uptimeLabel}><UptimeBar uptime={item.uptime} label={uptimeLabel} /></Table.Td>
                {hosts && (
                  <Table.Td data-label="Services up">
                    <UptimeBar uptime={item.servicesup ?? null} label="Services up" none="no monitored services" />
                  </Table.Td>
                )}
                <Table.Td data-label="Down">
                  <Text span size="sm" c={item.downtime === '0m' ? 'dimmed' : undefined}>
                    {item.downtime}
                    {item.unknown !== '0m' && (
                      <Text span size="xs" c="dimmed" title={UNKNOWN_HINT}> · {item.unknown} unknown</Text>
                    )}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Events">{renderEvents(item)}</Table.Td>
              </Table.Tr>
            )
          })}
          {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
        </Table.Tbody>
      </Table>
    </div>
  )
}

/** A host monitoring no service sorts after every figure. */
const figure = (item: UptimeItem, key: 'uptime' | 'servicesup') => (key === 'uptime' ? item.uptime : (item.servicesup ?? 101))

function sortItems(items: UptimeItem[], key: UptimeSortKey | undefined, dir: SortDir): UptimeItem[] {
  if (!key) return items
  const sign = dir === 'asc' ? 1 : -1
  const byName = (a: UptimeItem, b: UptimeItem) => a.name.localeCompare(b.name)
  return [...items].sort((a, b) => {
    const primary = key === 'name' ? byName(a, b) : key === 'events' ? a.events - b.events : figure(a, key) - figure(b, key)
    return primary !== 0 ? sign * primary : byName(a, b)
  })
}
