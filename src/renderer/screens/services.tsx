// Services across hosts (status/services/list): "where does nginx fail?" answered as host × service
// with its state and since when it fails, with the hosts list's filters plus the service name, all in
// the URL; failing first, the longest failing first. Live: the 'status' key refreshes the page.
import { Group, Pagination, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useMediaQuery } from '@mantine/hooks'
import { serviceListPageQuery, type ServiceListSortKey, type ServiceOverviewEntry } from '../api/overview'
import { ErrorNote } from '../components/error-note'
import { ScreenTitle } from '../components/screen-title'
import { MutedMark } from '../components/muted-mark'
import { formatAge, formatWhen } from '../components/relative-time'
import { useNow } from '../components/use-now'
import { HostFilters } from './monitor/host-filters'
import { COMPACT_QUERY } from './monitor/host-table'
import { LedDot } from './monitor/led-dot'
import { ServiceLink } from './monitor/service-link'
import { serviceFilter, type ServiceSearch } from './monitor/service-search'
import { SortHeader } from './reports/sort-header'
import { servicesRoute } from '../app/routes'

const PAGE_SIZE = 100

interface SortProps {
  sort: ServiceListSortKey
  dir: 'asc' | 'desc'
  onSort: (column: ServiceListSortKey, dir: 'asc' | 'desc') => void
}

export function ServicesScreen() {
  const search = servicesRoute.useSearch()
  const navigate = servicesRoute.useNavigate()
  const now = useNow()
  const compact = useMediaQuery(COMPACT_QUERY) ?? false
  const page = search.page ?? 1
  const list = useQuery(serviceListPageQuery(serviceFilter(search), page - 1, PAGE_SIZE))
  // Any change of filter or order starts again at the first page.
  const update = (change: (prev: ServiceSearch) => ServiceSearch) =>
    void navigate({ search: (prev) => ({ ...change(prev), page: undefined }), replace: true })
  const sort = (column: ServiceListSortKey, dir: 'asc' | 'desc') => update((prev) => ({ ...prev, sort: column, dir }))
  const header: SortProps = { sort: search.sort ?? 'attention', dir: search.dir ?? 'asc', onSort: sort }
  const total = list.data?.totalRecords ?? 0
  return (
    <Stack gap="md">
      <ScreenTitle title="Services" loading={list.isFetching} loadingLabel="Loading services" />
      <HostFilters search={search} onChange={update} services />
      <ErrorNote error={list.error} title="The services could not be loaded" />
      {list.data && total === 0 && (
        <Text c="dimmed" data-testid="services-empty">
          No service matches these filters.
        </Text>
      )}
      {list.data && total > 0 && (
        <>
          <Text size="sm" c="dimmed" data-testid="service-count">
            {total.toLocaleString()} service{total === 1 ? '' : 's'}
          </Text>
          {compact ? (
            <ServiceCards services={list.data.records} now={now} />
          ) : (
            <ServiceTable services={list.data.records} now={now} header={header} />
          )}
          {total > PAGE_SIZE && (
            <Pagination
              total={Math.ceil(total / PAGE_SIZE)}
              value={page}
              withEdges
              onChange={(p) => void navigate({ search: (prev) => ({ ...prev, page: p > 1 ? p : undefined }) })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          )}
        </>
      )}
    </Stack>
  )
}

interface ListProps {
  services: ServiceOverviewEntry[]
  now: number
}

function ServiceTable({ services, now, header }: ListProps & { header: SortProps }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing={6} aria-label="Services" data-testid="services-table">
        <Table.Thead>
          <Table.Tr>
            <SortHeader column="attention" w={60} {...header}>
              LED
            </SortHeader>
            <SortHeader column="name" {...header}>
              Service
            </SortHeader>
            <SortHeader column="hostname" {...header}>
              Host
            </SortHeader>
            <SortHeader column="type" w={110} {...header}>
              Type
            </SortHeader>
            <SortHeader column="status" {...header}>
              Status
            </SortHeader>
            <SortHeader column="since" w={120} {...header}>
              Failing for
            </SortHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {services.map((s) => (
            <Table.Tr key={s.id} data-service-row={`${s.hostname}/${s.name}`}>
              <Table.Td>
                <LedDot led={s.led} />
              </Table.Td>
              <Table.Td>
                <ListedServiceLink service={s} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {s.hostname}
                </Text>
                {s.heartbeat === 0 && <LastKnown service={s} now={now} />}
                {s.muted !== null && <MutedMark until={s.muted} size="xs" />}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{s.type}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={statusColour(s.led)}>
                  {s.status}
                </Text>
              </Table.Td>
              <Table.Td>
                {s.since !== null && (
                  <Text size="sm" title={`Since ${new Date(s.since * 1000).toLocaleString()}`}>
                    {formatAge(s.since, now)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/** On a phone: one card per service, no table wider than the screen. */
function ServiceCards({ services, now }: ListProps) {
  return (
    <Stack gap={0} data-testid="services-table" data-layout="cards" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      {services.map((s) => (
        <Stack
          key={s.id}
          gap={2}
          py={8}
          data-service-row={`${s.hostname}/${s.name}`}
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <LedDot led={s.led} />
            <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              <ListedServiceLink service={s} />{' '}
              <Text span c="dimmed" size="sm">
                on {s.hostname}
              </Text>
            </Text>
          </Group>
          <Text size="sm" c={statusColour(s.led)}>
            {s.status}
            {s.since !== null && ` · failing for ${formatAge(s.since, now)}`}
          </Text>
          {s.heartbeat === 0 && <LastKnown service={s} now={now} />}
          {s.muted !== null && <MutedMark until={s.muted} size="xs" />}
        </Stack>
      ))}
    </Stack>
  )
}

function ListedServiceLink({ service: s }: { service: ServiceOverviewEntry }) {
  return <ServiceLink hostId={s.hostid} serviceName={s.name} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} />
}

/** A silent host's service: its state is the one last reported, and when that was. */
function LastKnown({ service: s, now }: { service: ServiceOverviewEntry; now: number }) {
  return (
    <Text size="xs" c="red" data-testid="last-known">
      No report since {formatWhen(s.lastreport, now)}: last known state
    </Text>
  )
}

const statusColour = (led: number) => (led === 0 ? 'red' : led === 1 ? 'orange' : undefined)
