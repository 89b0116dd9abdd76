// When a host's resources reach 100 % at their current trend (reports/forecasts/host, computed when asked):
// on the host page every resource, each linking to its service; on a service's page only that service's.
// A resource without enough history for a trend has no forecast yet.
import { SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { hostForecastsQuery } from '../../api/forecasts'
import type { ServiceEntry } from '../../api/status'
import { ErrorNote } from '../../components/error-note'
import { useNow } from '../../components/use-now'
import { ForecastRow } from './forecast-row'
import { bySoonest, forecastDetails, resourceLabel } from './forecast-text'
import { ServiceLink } from './service-link'

interface Props {
  hostId: number
  /** Only this service's resources, named without it (its own page). */
  service?: ServiceEntry
}

export function ResourceForecasts({ hostId, service }: Props) {
  const forecasts = useQuery(hostForecastsQuery(hostId))
  const now = useNow(60_000)
  const records = forecasts.data?.records.filter((f) => !service || f.serviceid === service.id).sort(bySoonest)
  return (
    <Stack gap="xs" data-testid="forecasts">
      <Title order={3} size="h4">
        {service ? `Forecasts of ${service.name}` : 'Forecasts'}
      </Title>
      {forecasts.isError && <ErrorNote error={forecasts.error} title="The forecasts could not be loaded" />}
      {forecasts.isPending && (
        <Text size="sm" c="dimmed">
          Loading forecasts…
        </Text>
      )}
      {records?.length === 0 && (
        <Text size="sm" c="dimmed">
          Not enough history yet to see a trend: forecasts start after about half a day of figures.
        </Text>
      )}
      {records && records.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" verticalSpacing={0}>
          {records.map((f) => (
            <ForecastRow
              key={`${f.serviceid} ${f.resource}`}
              forecast={f}
              now={now}
              name={
                service ? (
                  <Text size="sm">{f.resource}</Text>
                ) : (
                  <ServiceLink hostId={hostId} serviceName={f.service} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {resourceLabel(f)}
                  </ServiceLink>
                )
              }
              details={forecastDetails(f)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  )
}
