// One service of one host on one screen (/#/hosts/<id>/services/<name>): its state and since when, its
// actions, its latest figures, when its space, inodes, memory or swap run out, its charts over the range in
// the URL and its latest events. The service comes from the host's status/hosts/get answer (the 'status'
// key refreshes it live).
import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { EventState, ServiceType } from '../../shared/codes'
import { ApiError } from '../api/client'
import { failingSinceQuery, hostEventsQuery } from '../api/events-summary'
import { hostOverviewQuery } from '../api/overview'
import { useProfile } from '../api/profile'
import { hostDetailQuery, type HostDetail, type ServiceEntry } from '../api/status'
import { serviceDetailRoute } from '../app/routes'
import { ErrorNote } from '../components/error-note'
import { HostName } from '../components/host-name'
import { Led } from '../components/led'
import { formatAge, formatWhen } from '../components/relative-time'
import { useNow } from '../components/use-now'
import { ServiceMute } from './alerts/host-mute'
import { HostEvents, LATEST_EVENTS } from './monitor/host-events'
import { LastKnownNote, silentActionsReason } from './monitor/last-known'
import { LatestFigures } from './monitor/latest-figures'
import { ServiceActions } from './monitor/service-actions'
import { ServiceCharts } from './monitor/service-charts'
import { ResourceForecasts } from './monitor/resource-forecasts'
import { monitoringLabel } from './monitor/services-table'
import { AnchorLink } from './reports/anchor-link'

export function ServiceDetailScreen() {
  const { hostId: rawHost, serviceName } = serviceDetailRoute.useParams()
  const range = serviceDetailRoute.useSearch()
  const navigate = serviceDetailRoute.useNavigate()
  const hostId = Number(rawHost)
  const validHost = Number.isInteger(hostId) && hostId > 0
  const detail = useQuery({ ...hostDetailQuery(hostId), enabled: validHost })
  if (!validHost) return <NoSuchService message={`"${rawHost}" is not a host id.`} />
  if (detail.isError) {
    return detail.error instanceof ApiError && detail.error.status === 404 ? (
      <NoSuchService message={detail.error.message} />
    ) : (
      <ErrorNote error={detail.error} title="The service could not be loaded" />
    )
  }
  if (detail.isPending) return <Text c="dimmed">Loading service…</Text>
  const { host, serviceactions } = detail.data.records
  const service = host.services.find((s) => s.name === serviceName)
  if (!service) return <NoSuchService message={`${host.name} reports no service named "${serviceName}".`} hostId={host.id} />
  return (
    <Stack gap="lg" data-testid="service-detail">
      <ServiceHeader host={host} service={service} mayAct={serviceactions === true} />
      <LatestFigures service={service} />
      {hasForecasts(service) && <ResourceForecasts hostId={host.id} service={service} />}
      <ServiceCharts hostId={host.id} service={service} range={range} onRange={(next) => void navigate({ search: next, replace: true })} />
      <Stack gap="xs">
        <Title order={3} size="h4">
          Latest events of {service.name}
        </Title>
        <HostEvents hostId={host.id} service={service} />
      </Stack>
    </Stack>
  )
}

/** A filesystem's space and inodes, a system's memory and swap: the resources that fill up. */
const hasForecasts = (service: ServiceEntry) => service.typeid === ServiceType.Filesystem || service.typeid === ServiceType.System

function ServiceHeader({ host, service, mayAct }: { host: HostDetail; service: ServiceEntry; mayAct: boolean }) {
  const profile = useProfile()
  const silent = host.heartbeat === 0
  // The host's last report (status/hosts/get, M/Monit's, does not carry it), asked only while it is silent.
  const overview = useQuery({ ...hostOverviewQuery(host.id), enabled: silent })
  const lastreport = overview.data?.records[0]?.lastreport
  const now = useNow()
  return (
    <Stack gap="xs">
      <AnchorLink to="/hosts/$hostId" params={{ hostId: String(host.id) }} search={{}} size="sm" w="fit-content">
        ← <HostName name={host.name} />
      </AnchorLink>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          {/* A silent host's LED is faded, as on its host page: the last known state, not the state now. */}
          <span
            style={silent ? { opacity: 0.4, display: 'inline-flex' } : { display: 'inline-flex' }}
            data-last-known={silent || undefined}>
            <Led led={service.led} size={16} />
          </span>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {service.name}
          </Title>
          <Badge variant="light" color="gray">
            {service.type}
          </Badge>
        </Group>
        <Group gap="xs">
          {profile.admin && <ServiceMute hostId={host.id} hostName={host.name} service={service} />}
          {profile.serviceactions && mayAct && (
            <ServiceActions
              hostId={host.id}
              hostName={host.name}
              service={service}
              disabledReason={silent ? silentActionsReason(lastreport, now) : undefined}
            />
          )}
        </Group>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Text fw={600} data-testid="service-status" c={silent ? 'dimmed' : undefined} fs={silent ? 'italic' : undefined}>
          {service.status}
        </Text>
        <StateSince hostId={host.id} service={service} />
        <Text c="dimmed">· {monitoringLabel(service.monitorstate)}</Text>
      </Group>
      {silent && <LastKnownNote lastreport={lastreport} now={now} subject="This service is" />}
    </Stack>
  )
}

/**
 * Since when the state holds: "· failing since 11:54 (16 min)" from the service's oldest active error,
 * else "· since 12:10 (2 min)" from its latest recovery; nothing when its events tell neither.
 */
function StateSince({ hostId, service }: { hostId: number; service: ServiceEntry }) {
  const failing = useQuery(failingSinceQuery(hostId, service.nameid))
  // The same query as the events below: one request for both.
  const latest = useQuery(hostEventsQuery(hostId, LATEST_EVENTS, service.nameid))
  const now = useNow()
  if (failing.data) {
    return (
      <Text c="red" fw={600} data-testid="state-since">
        · failing since {formatWhen(failing.data.date, now)} ({formatAge(failing.data.date, now)})
      </Text>
    )
  }
  const recovery = failing.isSuccess ? latest.data?.records.find((e) => e.eventtype !== EventState.Changed) : undefined
  if (recovery?.eventtype !== EventState.Succeeded) return null
  return (
    <Text data-testid="state-since">
      · since {formatWhen(recovery.date, now)} ({formatAge(recovery.date, now)})
    </Text>
  )
}

function NoSuchService({ message, hostId }: { message: string; hostId?: number }) {
  return (
    <Stack align="flex-start">
      <Title order={2}>Service not found</Title>
      <Text>{message} It may have been removed, or you may not have permission to view it.</Text>
      {hostId === undefined ? (
        <Anchor component={Link} to="/hosts">
          Back to the hosts
        </Anchor>
      ) : (
        <AnchorLink to="/hosts/$hostId" params={{ hostId: String(hostId) }} search={{}}>
          Back to the host
        </AnchorLink>
      )}
    </Stack>
  )
}
