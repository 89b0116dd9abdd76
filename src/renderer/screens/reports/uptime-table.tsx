// Uptime items (hosts or services) in a sortable table that renders only the rows in view, so 10,000
// hosts scroll as smoothly as ten.
import { Badge, Group, Progress, Table, Text } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState, type ReactNode } from 'react'
import type { UptimeItem } from '../../api/uptime'
import { SortHeader } from './sort-header'

type UptimeSortKey = 'name' | 'uptime' | 'events'
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
  return (
    // Scrolls sideways by itself on a narrow screen rather than widening the page.
    <div ref={scroller} style={maxHeight === undefined ? { overflowX: 'auto' } : { maxHeight, overflow: 'auto' }}>
      <Table stickyHeader highlightOnHover verticalSpacing={8} style={{ minWidth: 640 }} aria-label={`Uptime per ${nameHeader.toLowerCase()}`}
        aria-rowcount={sorted.length + 1}>
        <Table.Thead>
          <Table.Tr>
            <SortHeader column="name" {...header}>{nameHeader}</SortHeader>
            <SortHeader column="uptime" w={260} {...header}>Uptime</SortHeader>
            <Table.Th w={200}>Downtime</Table.Th>
            <SortHeader column="events" firstDir="desc" w={100} {...header}>Events</SortHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {padTop > 0 && <tr aria-hidden style={{ height: padTop }} />}
          {visible.map((row) => {
            const item = sorted[row.index]
            return (
              <Table.Tr key={`${item.id}-${item.name}`} h={ROW_HEIGHT} aria-rowindex={row.index + 2} data-item={item.name}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {renderName(item)}
                    {item.active === 0 && <Badge size="xs" color="gray" variant="light">{inactiveLabel}</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td><UptimeBar uptime={item.uptime} /></Table.Td>
                <Table.Td>
                  <Text size="sm" c={item.downtime === '0m' ? 'dimmed' : undefined}>
                    {item.downtime}
                    {item.unknown !== '0m' && (
                      <Text span size="xs" c="dimmed" title={UNKNOWN_HINT}> · {item.unknown} unknown</Text>
                    )}
                  </Text>
                </Table.Td>
                <Table.Td>{renderEvents(item)}</Table.Td>
              </Table.Tr>
            )
          })}
          {padBottom > 0 && <tr aria-hidden style={{ height: padBottom }} />}
        </Table.Tbody>
      </Table>
    </div>
  )
}

export function uptimeColor(uptime: number): string {
  return uptime >= 99.9 ? 'green' : uptime >= 99 ? 'yellow' : uptime >= 95 ? 'orange' : 'red'
}

export function UptimeBar({ uptime }: { uptime: number }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Progress value={uptime} color={uptimeColor(uptime)} w={{ base: 60, sm: 140 }} size="md" aria-label={`Uptime ${uptime}%`} />
      <Text size="sm" ff="monospace">{uptime.toFixed(2)}%</Text>
    </Group>
  )
}

function sortItems(items: UptimeItem[], key: UptimeSortKey | undefined, dir: SortDir): UptimeItem[] {
  if (!key) return items
  const sign = dir === 'asc' ? 1 : -1
  const byName = (a: UptimeItem, b: UptimeItem) => a.name.localeCompare(b.name)
  return [...items].sort((a, b) => {
    const primary = key === 'name' ? byName(a, b) : key === 'uptime' ? a.uptime - b.uptime : a.events - b.events
    return primary !== 0 ? sign * primary : byName(a, b)
  })
}
