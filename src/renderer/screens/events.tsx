// Events: every filter of reports/events/list kept in the URL, server-side sort and paging. New events
// appear by themselves: the live stream refreshes every query under 'events'. Export CSV takes every
// event the filters choose, not only this page.
import { Button, EmptyState, Group, Loader, Pagination, Select, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { allEvents, DEFAULT_EVENT_PAGE_SIZE, EVENT_PAGE_SIZES, eventListQuery, type EventSearch } from '../api/events'
import { ErrorNote } from '../components/error-note'
import { FoldableFilters } from '../components/foldable-filters'
import { EventFilters } from './reports/event-filters'
import { hasEventFilter, parseEventSearch } from './reports/event-search'
import { EventTable } from './reports/event-table'
import { ExportButton } from './reports/export-button'
import { eventsCsv } from './reports/report-csv'
import { eventsRoute } from '../app/routes'

export function EventsScreen() {
  const search = eventsRoute.useSearch()
  const navigate = useNavigate({ from: '/events' })
  const list = useQuery(eventListQuery(search))
  // Any change of filter or sort starts again at the first page.
  const change = (patch: Partial<EventSearch>) =>
    void navigate({ search: (prev) => parseEventSearch({ ...prev, ...patch, page: undefined }) })
  const goToPage = (page: number) => void navigate({ search: (prev) => parseEventSearch({ ...prev, page }) })
  const knownServices = useMemo(() => new Map((list.data?.records ?? []).map((e) => [e.servicenameid, e.servicename])), [list.data])

  const size = search.size ?? DEFAULT_EVENT_PAGE_SIZE
  const total = list.data?.totalRecords ?? 0
  const pages = Math.max(1, Math.ceil(total / size))
  const first = list.data ? list.data.startIndex + 1 : 0
  const last = list.data ? list.data.startIndex + list.data.recordsReturned : 0

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>Events</Title>
        <Group gap="sm">
          {list.isFetching && <Loader size="sm" role="status" aria-label="Loading events" />}
          {total > 0 && <ExportButton filename="overseer-events.csv" make={async () => eventsCsv(await allEvents(search))} />}
        </Group>
      </Group>
      <FoldableFilters anyOn={hasEventFilter(search)}>
        <EventFilters search={search} knownServices={knownServices} onChange={change} onClear={() => void navigate({ search: {} })} />
      </FoldableFilters>
      <ErrorNote error={list.error} title="The events could not be loaded" />
      {list.data && list.data.records.length === 0 && total > 0 && (
        <EmptyState title="This page is past the last event" description={`The list now holds ${total.toLocaleString()} events.`}>
          <EmptyState.Actions>
            <Button onClick={() => goToPage(1)}>Go to the first page</Button>
          </EmptyState.Actions>
        </EmptyState>
      )}
      {list.data && total === 0 && (
        <EmptyState
          title={hasEventFilter(search) ? 'No event matches these filters' : 'No events yet'}
          description={
            hasEventFilter(search)
              ? 'Widen the filters or clear them to see more events.'
              : 'Events appear here as soon as a Monit agent reports one.'
          }
        />
      )}
      {list.data && list.data.records.length > 0 && (
        <>
          <EventTable
            events={list.data.records}
            // The order asked for, before the answer in that order arrives: a second click on a header while
            // the first one's answer is on its way reverses that order, not the one still shown.
            sort={search.sort ?? list.data.sort}
            dir={search.dir ?? list.data.dir}
            onSort={(sort, dir) => change({ sort, dir })}
            onHost={(hostId) => change({ host: [hostId] })}
            onService={(service) => change({ service })}
          />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="event-range">
              {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()} events
            </Text>
            <Group gap="sm">
              <Pagination
                total={pages}
                value={Math.min(search.page ?? 1, pages)}
                onChange={goToPage}
                withEdges
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
              <Select
                aria-label="Events per page"
                w={130}
                allowDeselect={false}
                data={EVENT_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} / page` }))}
                value={String(size)}
                onChange={(v) => change({ size: Number(v) })}
              />
            </Group>
          </Group>
        </>
      )}
    </Stack>
  )
}
