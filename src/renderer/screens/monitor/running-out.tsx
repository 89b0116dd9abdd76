// The dashboard's "Running out": the resources full within a week at their current trend, soonest first,
// each linking to its host.
import { Anchor, Card, Skeleton, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ResourceForecast } from '../../api/forecasts'
import { ErrorNote } from '../../components/error-note'
import { HostName } from '../../components/host-name'
import { useNow } from '../../components/use-now'
import { RUNNING_OUT_DAYS, runningOutQuery } from './first-pages'
import { ForecastRow } from './forecast-row'
import { forecastDetails, resourceLabel } from './forecast-text'

export function RunningOut() {
  const forecasts = useQuery(runningOutQuery)
  return (
    <Card withBorder data-testid="running-out">
      <Title order={3} size="h4" mb="sm">
        Running out
      </Title>
      {forecasts.isError && <ErrorNote error={forecasts.error} title="The forecasts could not be loaded" />}
      {forecasts.isPending && <Skeleton height={120} />}
      {forecasts.isSuccess && <RunningOutList records={forecasts.data.records} total={forecasts.data.totalRecords} />}
    </Card>
  )
}

function RunningOutList({ records, total }: { records: ResourceForecast[]; total: number }) {
  const now = useNow(60_000)
  if (records.length === 0)
    return (
      <Text c="dimmed" data-testid="running-out-empty">
        Nothing is running out within {RUNNING_OUT_DAYS} days.
      </Text>
    )
  return (
    <Stack gap={0}>
      {records.map((f) => (
        <ForecastRow
          key={`${f.serviceid} ${f.resource}`}
          forecast={f}
          now={now}
          name={
            <Anchor renderRoot={(props) => <Link {...props} to="/hosts/$hostId" params={{ hostId: String(f.hostid) }} />} fw={600}>
              <HostName name={f.host} />
            </Anchor>
          }
          details={[resourceLabel(f), ...forecastDetails(f)]}
        />
      ))}
      {total > records.length && (
        <Text size="sm" c="dimmed" mt="xs">
          The {records.length} soonest of {total.toLocaleString()}.
        </Text>
      )}
    </Stack>
  )
}
