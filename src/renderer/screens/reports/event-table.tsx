// One page of events: sortable columns, the date opens the event, host and service narrow the list.
import { Badge, Group, Table, Text, UnstyledButton } from '@mantine/core'
import type { ReactNode } from 'react'
import { HostName } from '../../components/host-name'
import type { EventListEntry, EventSortKey, SortDir } from '../../api/events'
import { AnchorLink } from './anchor-link'
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
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing={6} stickyHeader aria-label="Events">
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
          {events.map((e) => (
            <Table.Tr key={e.id} data-event-id={e.id}>
              <Table.Td>
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
              </Table.Td>
              <Table.Td><Text size="sm" lineClamp={2}>{e.message}</Text></Table.Td>
              <Table.Td>{e.note ? <Badge size="sm" variant="default">Note</Badge> : null}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
