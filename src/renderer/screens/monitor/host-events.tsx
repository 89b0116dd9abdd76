// A host's latest events (or one of its services'), newest first, each linking to its detail; repeats of one service fold into
// one row with their count, and an active error says how long it has been failing.
import { Anchor, Badge, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { hostEventsQuery } from '../../api/events-summary'
import { ErrorNote } from '../../components/error-note'
import { formatAge } from '../../components/relative-time'
import { useNow } from '../../components/use-now'
import { AnchorLink } from '../reports/anchor-link'
import { groupRepeats } from '../reports/event-groups'
import { StackedTable } from '../../components/stacked-table'

/** How many of the latest events are shown. */
export const LATEST_EVENTS = 20
const stateLook: Record<number, { color: string; label: string }> = {
  0: { color: 'green', label: 'Succeeded' },
  1: { color: 'red', label: 'Failed' },
  2: { color: 'orange', label: 'Changed' }
}

interface Props {
  hostId: number
  /** Only this service's events (its name id and name), without a Service column. */
  service?: { nameid: number; name: string }
}

export function HostEvents({ hostId, service }: Props) {
  const events = useQuery(hostEventsQuery(hostId, LATEST_EVENTS, service?.nameid))
  const now = useNow()
  if (events.isError) return <ErrorNote error={events.error} title="The events could not be loaded" />
  if (events.isPending) return <Text c="dimmed">Loading events…</Text>
  const { records, totalRecords } = events.data
  if (records.length === 0) return <Text c="dimmed">No events from this {service ? 'service' : 'host'} yet.</Text>
  return (
    <>
      <StackedTable minWidth={560} highlightOnHover data-testid="host-events">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            {!service && <Table.Th>Service</Table.Th>}
            <Table.Th>Event</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groupRepeats(records).map(({ first: e, rest }) => (
            <Table.Tr key={e.id}>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {new Date(e.date * 1000).toLocaleString()}
                </Text>
              </Table.Td>
              {!service && <Table.Td>{e.servicename}</Table.Td>}
              <Table.Td>
                <Anchor renderRoot={(props) => <Link {...props} to="/events/$eventId" params={{ eventId: String(e.id) }} />} size="sm">
                  {e.event}
                </Anchor>
                {rest.length > 0 && (
                  <Text size="xs" c="dimmed">
                    ×{rest.length + 1}, the first {formatAge(rest[rest.length - 1].date, now)} ago
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={stateLook[e.eventtype]?.color ?? 'gray'}>
                  {stateLook[e.eventtype]?.label ?? 'Unknown'}
                </Badge>
                {e.active === 1 && e.eventtype === 1 && (
                  <Text size="xs" c="red">
                    failing for {formatAge(e.date, now)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </StackedTable>
      {totalRecords > records.length && (
        <Text size="sm" c="dimmed">
          The latest {records.length} of {totalRecords.toLocaleString()} events.{' '}
          <AnchorLink to="/events" search={{ host: [hostId], service: service?.nameid }} size="sm">
            All events
          </AnchorLink>
        </Text>
      )}
    </>
  )
}
