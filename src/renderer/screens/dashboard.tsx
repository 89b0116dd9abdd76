// The first screen: how many hosts are in which state (status/hosts/summary), the last 24 hours of
// events (reports/events/summary), the hosts needing attention and the resources running out
// (reports/forecasts/list). Everything links to its detail. With no host yet it explains how to connect
// one. Live: 'status' and 'events' keys refresh.
import { Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { eventsSummaryQuery } from '../api/events-summary'
import { useProfile } from '../api/profile'
import { hostSummaryQuery, type HostCategory } from '../api/status'
import { EventsChart } from '../components/charts/events-chart'
import { ErrorNote } from '../components/error-note'
import { MonitrcLine, monitrcLine } from '../components/monitrc-line'
import { RefusedAgentsForAdmins } from './admin/refused-agents'
import { AttentionList } from './monitor/attention-list'
import { attentionQuery } from './monitor/first-pages'
import { RunningOut } from './monitor/running-out'

/** Each category's colour and the LED filter of the hosts list that shows its hosts. */
const categories: Record<HostCategory, { color: string; led: number }> = {
  failed: { color: 'red', led: 0 },
  'services failed': { color: 'red', led: 0 },
  'some services failed/unmonitored': { color: 'orange', led: 1 },
  ok: { color: 'green', led: 2 },
  inactive: { color: 'gray', led: 3 },
  ignored: { color: 'gray', led: 3 }
}

export function Dashboard() {
  const summary = useQuery(hostSummaryQuery)
  const attention = useQuery(attentionQuery)
  const events = useQuery(eventsSummaryQuery)
  const hostCount = summary.data?.status.reduce((n, c) => n + c.data, 0)
  const ready = summary.isSuccess && attention.isSuccess && events.isSuccess
  return (
    <Stack gap="lg" data-testid="dashboard" data-ready={ready || undefined}>
      <Title order={2}>Dashboard</Title>
      {summary.isError && <ErrorNote error={summary.error} title="The host summary could not be loaded" />}
      {summary.isPending && <Skeleton height={84} />}
      {hostCount === 0 && <NoHostsYet />}
      <RefusedAgentsForAdmins />
      {summary.isSuccess && hostCount! > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="host-summary">
          {summary.data.status.map(({ label, data }) => {
            const words = label === 'ok' ? 'OK' : label.charAt(0).toUpperCase() + label.slice(1)
            return (
              <Card
                key={label}
                withBorder
                padding="sm"
                renderRoot={(props) => <Link {...props} to="/hosts" search={{ led: [categories[label].led] }} />}>
                {/* Named by its content, "3 Failed hosts": the words on screen, then what they count (WCAG 2.5.3). */}
                <Text size="xl" fw={700} c={data > 0 ? categories[label].color : 'dimmed'}>
                  {data.toLocaleString()}
                </Text>{' '}
                <Text size="sm" c="dimmed">
                  {words}
                  <VisuallyHidden> hosts</VisuallyHidden>
                </Text>
              </Card>
            )
          })}
        </SimpleGrid>
      )}
      {hostCount !== 0 && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <Card withBorder>
            <Group justify="space-between" mb="sm">
              <Title order={3} size="h4">
                Needs attention
              </Title>
              <Anchor component={Link} to="/hosts" size="sm">
                All hosts
              </Anchor>
            </Group>
            {attention.isError && <ErrorNote error={attention.error} title="The hosts could not be loaded" />}
            {attention.isPending && <Skeleton height={120} />}
            {attention.isSuccess && <AttentionList page={attention.data} />}
          </Card>
          <Card withBorder>
            <Group justify="space-between" mb="sm">
              <Title order={3} size="h4">
                Events in the last 24 hours
              </Title>
              <Anchor component={Link} to="/events" size="sm">
                All events
              </Anchor>
            </Group>
            {events.isError && <ErrorNote error={events.error} title="The events summary could not be loaded" />}
            {events.isPending && <Skeleton height={220} />}
            {events.isSuccess && <EventsChart summary={events.data} />}
          </Card>
          <RunningOut />
        </SimpleGrid>
      )}
    </Stack>
  )
}

function NoHostsYet() {
  const profile = useProfile()
  return (
    <Card withBorder padding="lg" data-testid="no-hosts">
      <Stack gap="sm">
        <Title order={3} size="h4">
          No hosts yet
        </Title>
        <Text>
          A host appears here when its Monit agent first reports to this server. Add this line to each agent's monitrc, with the collector
          user's name and password, then reload Monit (<code>monit reload</code>):
        </Text>
        <MonitrcLine line={monitrcLine('USER', 'PASSWORD')} />
        {profile.admin ? (
          <Text size="sm">
            The collector user and its password are in{' '}
            <Anchor component={Link} to="/settings">
              Settings
            </Anchor>
            .
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Ask an administrator for the collector user's name and password.
          </Text>
        )}
      </Stack>
    </Card>
  )
}
