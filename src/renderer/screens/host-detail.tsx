// One host (status/hosts/get): what it is, its services with their state and actions (each opens its
// own page), when its resources run out, the system's statistics and history, and the host's latest
// events. Live: the 'status' key refreshes.
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { hostStatusLabel, ServiceType, type HostStatus } from '../../shared/codes'
import { ApiError } from '../api/client'
import { hostOverviewQuery } from '../api/overview'
import { useProfile } from '../api/profile'
import { hostDetailQuery, type HostDetail } from '../api/status'
import { ErrorNote } from '../components/error-note'
import { HostName } from '../components/host-name'
import { HostMute, ServiceMute } from './alerts/host-mute'
import { Led } from '../components/led'
import { MutedMark } from '../components/muted-mark'
import { useNow } from '../components/use-now'
import { LastKnownNote, silentActionsReason } from './monitor/last-known'
import { HostEvents } from './monitor/host-events'
import { HostUptime } from './monitor/host-uptime'
import { ServiceCharts } from './monitor/service-charts'
import { LatestFigures } from './monitor/latest-figures'
import { ResourceForecasts } from './monitor/resource-forecasts'
import { ServicesTable } from './monitor/services-table'
import { formatBytes } from './monitor/statistics'
import { hostDetailRoute } from '../app/routes'

export function HostDetailScreen() {
  const { hostId: raw } = hostDetailRoute.useParams()
  const range = hostDetailRoute.useSearch()
  const navigate = hostDetailRoute.useNavigate()
  const hostId = Number(raw)
  const profile = useProfile()
  const detail = useQuery({ ...hostDetailQuery(hostId), enabled: Number.isInteger(hostId) && hostId > 0 })
  // Its last report and its mute, which status/hosts/get (M/Monit's) does not carry.
  const overview = useQuery({ ...hostOverviewQuery(hostId), enabled: Number.isInteger(hostId) && hostId > 0 })
  const now = useNow()
  if (!Number.isInteger(hostId) || hostId <= 0) return <NoSuchHost message={`"${raw}" is not a host id.`} />
  if (detail.isError) {
    return detail.error instanceof ApiError && detail.error.status === 404 ? (
      <NoSuchHost message={detail.error.message} />
    ) : (
      <ErrorNote error={detail.error} title="The host could not be loaded" />
    )
  }
  if (detail.isPending) return <Text c="dimmed">Loading host…</Text>
  const { host, serviceactions } = detail.data.records
  const mayAct = profile.serviceactions && serviceactions
  // The system service: it carries the host's CPU, memory and load.
  const service = host.services.find((s) => s.typeid === ServiceType.System)
  const entry = overview.data?.records[0]
  const silent = host.heartbeat === 0
  return (
    <Stack gap="lg" data-testid="host-detail">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <Led led={host.led} size={16} host />
          <Title order={2}>
            <HostName name={host.name} />
          </Title>
          <Badge variant="light" color={host.heartbeat === 0 ? 'red' : 'gray'}>
            {host.heartbeat === 0 ? 'No heartbeat' : hostStatusLabel[host.statusid as HostStatus]}
          </Badge>
        </Group>
        {/* Administrators see the mute beside its button. */}
        {profile.admin ? <HostMute hostId={host.id} hostName={host.name} /> : entry?.muted != null && <MutedMark until={entry.muted} />}
      </Group>
      <Text data-testid="host-status">{host.status}</Text>
      {silent && <LastKnownNote lastreport={entry?.lastreport} now={now} />}
      <HostFacts host={host} />
      <HostUptime hostId={host.id} />
      <Stack gap="xs">
        <Title order={3} size="h4">
          Services
        </Title>
        {!mayAct && host.services.length > 0 && (
          <Text size="sm" c="dimmed">
            You may view these services; starting and stopping them needs the service actions permission.
          </Text>
        )}
        <ServicesTable
          hostId={host.id}
          hostName={host.name}
          services={host.services}
          mayAct={mayAct}
          lastKnown={silent ? silentActionsReason(entry?.lastreport, now) : undefined}
          extra={profile.admin ? (s) => <ServiceMute hostId={host.id} hostName={host.name} service={s} /> : undefined}
        />
      </Stack>
      <ResourceForecasts hostId={host.id} />
      {service && <LatestFigures service={service} />}
      {service && (
        <ServiceCharts
          hostId={host.id}
          service={service}
          range={range}
          onRange={(next) => void navigate({ search: next, replace: true })}
        />
      )}
      <Stack gap="xs">
        <Title order={3} size="h4">
          Latest events
        </Title>
        <HostEvents hostId={host.id} />
      </Stack>
    </Stack>
  )
}

function NoSuchHost({ message }: { message: string }) {
  return (
    <Stack align="flex-start">
      <Title order={2}>Host not found</Title>
      <Text>{message} It may have been removed, or you may not have permission to view it.</Text>
      <Anchor component={Link} to="/hosts">
        Back to the hosts
      </Anchor>
    </Stack>
  )
}

function HostFacts({ host }: { host: HostDetail }) {
  const platform = [host.platform.name, host.platform.release, host.platform.machine].filter(Boolean).join(' ')
  const facts: [string, string][] = [
    ['Platform', platform || 'not reported'],
    ['CPUs', host.cpu.count > 0 ? String(host.cpu.count) : 'not reported'],
    ['Memory', host.memory.size > 0 ? formatBytes(host.memory.size * 1024) : 'not reported'],
    ['Swap', host.swap.size > 0 ? formatBytes(host.swap.size * 1024) : 'none'],
    ['System uptime', host.uptime || 'not reported'],
    ['Monit', `${host.agent.version || 'unknown version'}, up ${host.agent.uptime}`],
    ['Poll', `every ${host.agent.poll} s`],
    ['Control file', host.agent.controlfile || 'not reported']
  ]
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
      {facts.map(([label, value]) => (
        <Card key={label} withBorder padding="sm">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  )
}
