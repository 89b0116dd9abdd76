// One host's uptime per service (reports/uptime/get), the `Monit` row being the host's own silence.
import { EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { hostNamesQuery } from '../api/events'
import { uptimeServicesQuery } from '../api/uptime'
import { ErrorNote } from '../components/error-note'
import { HostName } from '../components/host-name'
import { AnchorLink } from './reports/anchor-link'
import { EventsLink } from './reports/events-link'
import { ExportButton } from './reports/export-button'
import { RangePicker } from './reports/range-picker'
import { uptimeCsv } from './reports/report-csv'
import { UptimeSummary } from './reports/uptime-summary'
import { UptimeTable } from './reports/uptime-table'
import { uptimeHostRoute } from '../app/routes'

/** The `Monit` item stands for the agent itself: its downtime is the time the host stayed silent. */
const MONIT_ITEM_ID = 0

export function UptimeHostScreen() {
  const { hostId } = uptimeHostRoute.useParams()
  const search = uptimeHostRoute.useSearch()
  const navigate = useNavigate({ from: '/uptime/$hostId' })
  const id = Number(hostId)
  const valid = Number.isInteger(id) && id > 0
  const report = useQuery({ ...uptimeServicesQuery(id, search), enabled: valid })
  // The name alone, not the whole hosts report: that one measures every host.
  const hosts = useQuery({ ...hostNamesQuery([id]), enabled: valid })
  const name = hosts.data?.[0]?.hostname
  return (
    <Stack gap="md">
      <AnchorLink to="/uptime" search={search} size="sm" w="fit-content">
        ← Uptime of all hosts
      </AnchorLink>
      <Group justify="space-between">
        <Title order={2}>
          {name ? (
            <>
              Uptime of <HostName name={name} />
            </>
          ) : (
            'Uptime of a host'
          )}
        </Title>
        <Group gap="sm">
          {report.isFetching && <Loader size="sm" role="status" aria-label="Loading the uptime report" />}
          {report.data && <ExportButton filename={`overseer-uptime-${name ?? id}.csv`} make={() => uptimeCsv(report.data, 'Service')} />}
        </Group>
      </Group>
      <RangePicker value={search} onChange={(next) => void navigate({ search: next })} />
      {!valid && <ErrorNote error={new Error(`"${hostId}" is not a host number.`)} title="No such host" />}
      <ErrorNote error={report.error} title="The uptime report could not be made" />
      {report.data && (
        <UptimeSummary
          report={report.data}
          itemsLabel="Services"
          agentReporting={report.data.items.find((i) => i.id === MONIT_ITEM_ID)?.uptime ?? report.data.uptime}
        />
      )}
      {report.data && report.data.items.length <= 1 && (
        <EmptyState title="No services reported" description="Only the agent's own uptime is known for this host so far." />
      )}
      {report.data && (
        <UptimeTable
          items={report.data.items}
          nameHeader="Service"
          inactiveLabel="Not monitored"
          renderName={(item) =>
            item.id === MONIT_ITEM_ID ? (
              <Text size="sm">
                {item.name}{' '}
                <Text span size="xs" c="dimmed">
                  (reports from the agent)
                </Text>
              </Text>
            ) : (
              <Text size="sm">{item.name}</Text>
            )
          }
          renderEvents={(item) => (
            <EventsLink
              count={item.events}
              hostId={id}
              from={report.data.datefrom}
              to={report.data.dateto}
              label={`${item.name}${name ? ` on ${name}` : ''}`}
            />
          )}
        />
      )}
    </Stack>
  )
}
