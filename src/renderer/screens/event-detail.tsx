// One event (reports/events/get): what happened, its notes, adding a note and dismissing the error.
import { Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useCanGoBack, useRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { eventQuery, type EventDetail } from '../api/events'
import { ErrorNote } from '../components/error-note'
import { formatAge } from '../components/relative-time'
import { useNow } from '../components/use-now'
import { ServiceLink } from './monitor/service-link'
import { AnchorLink } from './reports/anchor-link'
import { EventActions } from './reports/event-actions'
import { EventNotes } from './reports/event-notes'
import { EventStateBadge } from './reports/event-state'
import { formatDateTime } from './reports/time'
import { eventDetailRoute } from '../app/routes'

export function EventDetailScreen() {
  const { eventId } = eventDetailRoute.useParams()
  const id = Number(eventId)
  const valid = Number.isInteger(id) && id > 0
  const event = useQuery({ ...eventQuery(id), enabled: valid })
  return (
    <Stack gap="md" maw={960}>
      <BackToEvents />
      {!valid && <ErrorNote error={new Error(`"${eventId}" is not an event number.`)} title="No such event" />}
      <ErrorNote error={event.error} title="The event could not be loaded" />
      {event.isPending && valid && <Loader size="sm" role="status" aria-label="Loading the event" />}
      {event.data && <EventView event={event.data} />}
    </Stack>
  )
}

/** Back to the list as it was (filters, page) when the user came from it. */
function BackToEvents() {
  const router = useRouter()
  const canGoBack = useCanGoBack()
  return canGoBack ? (
    <Anchor component="button" type="button" onClick={() => router.history.back()} size="sm" w="fit-content">
      ← Back to events
    </Anchor>
  ) : (
    <AnchorLink to="/events" size="sm" w="fit-content">
      ← All events
    </AnchorLink>
  )
}

function EventView({ event }: { event: EventDetail }) {
  return (
    <>
      <Group gap="sm" align="center">
        <Title order={2}>{event.event}</Title>
        <EventStateBadge state={event.eventstate} />
      </Group>
      <Card withBorder padding="md">
        <Stack gap="md">
          <Text data-testid="event-message" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {event.message}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" component="dl" m={0}>
            <Field label="Host">
              <AnchorLink to="/hosts/$hostId" params={{ hostId: String(event.hostid) }}>
                {event.host}
              </AnchorLink>
            </Field>
            <Field label="Service">
              <ServiceLink hostId={event.hostid} serviceName={event.servicename} underline="always" />{' '}
              <Text span c="dimmed" size="sm">
                ({event.servicetype})
              </Text>
            </Field>
            <Field label="Date">{formatDateTime(event.date)}</Field>
            {event.active === 1 && event.eventstate === 1 && <FailingFor since={event.date} />}
            <Field label="Action">{event.action}</Field>
            <Field label="Event id">{event.id}</Field>
          </SimpleGrid>
          <EventActions event={event} />
        </Stack>
      </Card>
      <EventNotes event={event} />
    </>
  )
}

/** An active error: its service has been failing since the event, and still is. */
function FailingFor({ since }: { since: number }) {
  const now = useNow()
  return (
    <Field label="Failing for">
      <Text span c="red" fw={600} data-testid="failing-for">
        {formatAge(since, now)}
      </Text>{' '}
      (since {formatDateTime(since)})
    </Field>
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  )
}
