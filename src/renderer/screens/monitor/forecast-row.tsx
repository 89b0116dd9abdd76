// One resource's forecast as a line of a list: what it is, and the verdict at the right ("full in 2 d 5 h",
// coloured as it nears, the date on hover), with how full it is now and its trend below, muted. On a phone
// the details wrap between their parts, never inside one or inside the verdict.
import { Group, Stack, Text } from '@mantine/core'
import { Fragment, type ReactNode } from 'react'
import type { ResourceForecast } from '../../api/forecasts'
import { formatWhen } from '../../components/relative-time'
import { forecastVerdict, urgencyColor } from './forecast-text'

interface Props {
  forecast: ResourceForecast
  now: number
  /** What the line is about: a host, a resource, a link to either. */
  name: ReactNode
  /** Shown joined by " · ". */
  details: string[]
}

export function ForecastRow({ forecast, now, name, details }: Props) {
  const { fullat } = forecast
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      align="flex-start"
      gap="md"
      py={6}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-forecast={`${forecast.service} ${forecast.resource}`}>
      <Stack gap={0} miw={0}>
        {name}
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {details.map((detail, i) => (
            <Fragment key={detail}>
              {i > 0 && ' · '}
              <span style={{ whiteSpace: 'nowrap' }}>{detail}</span>
            </Fragment>
          ))}
        </Text>
      </Stack>
      <Text
        size="sm"
        fw={600}
        c={urgencyColor(fullat, now)}
        style={{ whiteSpace: 'nowrap' }}
        title={fullat === null ? undefined : `Full at ${formatWhen(fullat, now)}`}
        data-testid="forecast-verdict">
        {forecastVerdict(forecast, now)}
      </Text>
    </Group>
  )
}
