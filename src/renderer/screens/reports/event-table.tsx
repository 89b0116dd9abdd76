// One page of events: sortable columns, the date opens the event, host and service narrow the list.
// Repeats of one service (same state and message, next to each other) fold into their first row with a
// count that unfolds them; an active error says how long it has been failing.
import { Badge, Group, Table, Text, UnstyledButton } from '@mantine/core'
import { Fragment, useState, type ReactNode } from 'react'
import { HostName } from '../../components/host-name'
import { StackedTable } from '../../components/stacked-table'
import type { EventListEntry, EventSortKey, SortDir } from '../../api/events'
import { formatAge } from '../../components/relative-time'
import { useNow } from '../../components/use-now'
import { AnchorLink } from './anchor-link'
import { groupRepeats } from './event-groups'
import { EventStateBadge } from './event-state'
import { SortHeader } from './sort-header'
import { formatDateTime } from './time'

interface EventTableProps {
  events: EventListEntry[]
  sort: EventSortKey
  dir: SortDir
  onSort: (sort: EventSortKey, dir: SortDir) => void
  onHost: (hostId: number) => void
  onService: (serviceNameId: number) => void
}

export function EventTable({ events, sort, dir, onSort, onHost, onService }: EventTableProps) {
  const header = { sort, dir, onSort }
  // A page holds up to 1,000 rows: their ages move on every half minute, not every few seconds.
  const now = useNow(30_000)
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set())
  const toggle = (id: number) => setUnfolded((prev) => {
    const next = new Set(prev)
    if (!next.delete(id)) next.add(id)
    return next
  })
  return (
    <StackedTable minWidth={820} striped highlightOnHover verticalSpacing={6} stickyHeader aria-label="Events">
      <Table.Thead>
        <Table.Tr>
          <SortHeader column="date" firstDir="desc" w={200} {...header}>Date</SortHeader>
          <SortHeader column="hostname" w={160} {...header}>Host</SortHeader>
          <SortHeader column="servicename" w={150} {...header}>Service</SortHeader>
          <Table.Th w={170}>State</Table.Th>
          <SortHeader column="event" {...header}>Event</SortHeader>
          <SortHeader column="note" firstDir="desc" w={80} {...header}>Note</SortHeader>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groupRepeats(events).map(({ first, rest }) => (
          <Fragment key={first.id}>
            <EventRow e={first} now={now} onHost={onHost} onService={onService}
              repeats={rest.length > 0 ? { count: rest.length, open: unfolded.has(first.id), toggle: () => toggle(first.id) } : undefined} />
            {unfolded.has(first.id) && rest.map((e) => <EventRow key={e.id} e={e} now={now} onHost={onHost} onService={onService} repeat />)}
          </Fragment>
        ))}
      </Table.Tbody>
    </StackedTable>
  )
}

interface EventRowProps {
  e: EventListEntry
  now: number
  onHost: (hostId: number) => void
  onService: (serviceNameId: number) => void
  /** A group's first row: how many repeats it hides, and their toggle. */
  repeats?: { count: number; open: boolean; toggle: () => void }
  /** One of the repeats, unfolded under its first row. */
  repeat?: boolean
}

function EventRow({ e, now, onHost, onService, repeats, repeat = false }: EventRowProps) {
  const failing = e.active === 1 && e.state === 1
  return (
    <Table.Tr data-event-id={e.id} data-repeat={repeat || undefined} style={repeat ? { opacity: 0.75 } : undefined}>
      <Table.Td pl={repeat ? 'lg' : undefined}>
        <AnchorLink to="/events/$eventId" params={{ eventId: String(e.id) }} size="sm">
          {formatDateTime(e.date)}
        </AnchorLink>
      </Table.Td>
      <Table.Td>
        <FilterButton label={`Only events of host ${e.hostname}`} onClick={() => onHost(e.hostid)}><HostName name={e.hostname} /></FilterButton>
      </Table.Td>
      <Table.Td>
        <FilterButton label={`Only events of service ${e.servicename}`} onClick={() => onService(e.servicenameid)}>{e.servicename}</FilterButton>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <EventStateBadge state={e.state} />
          {e.active === 1 && <Badge size="xs" color="red" variant="outline">Active</Badge>}
        </Group>
        {failing && <Text size="xs" c="red" title={`Failing since ${formatDateTime(e.date)}`}>failing for {formatAge(e.date, now)}</Text>}
      </Table.Td>
      <Table.Td data-wide>
        <Text size="sm" lineClamp={2}>{e.message}</Text>
        {repeats && (
          <UnstyledButton onClick={repeats.toggle} fz="xs" c="blue" aria-expanded={repeats.open}>
            {repeats.open ? 'Hide repeats' : `Repeated ×${repeats.count + 1} — show all`}
          </UnstyledButton>
        )}
      </Table.Td>
      <Table.Td>{e.note ? <Badge size="sm" variant="default">Note</Badge> : null}</Table.Td>
    </Table.Tr>
  )
}

/** A plain title, not a Mantine Tooltip: a page holds up to 1,000 of these, and each Tooltip costs a render. */
function FilterButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <UnstyledButton onClick={onClick} aria-label={label} title={label} fz="sm" style={{ textAlign: 'left', wordBreak: 'break-word' }}>
      {children}
    </UnstyledButton>
  )
}
