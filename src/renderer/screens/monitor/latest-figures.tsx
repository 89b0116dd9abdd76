// A service's latest statistics as the agent last reported them, each with its unit.
import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import type { ServiceEntry } from '../../api/status'
import { statisticLabel } from './services-table'
import { formatStatistic } from './statistics'

export function LatestFigures({ service }: { service: ServiceEntry }) {
  if (service.statistics.length === 0) return null
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Latest figures of {service.name}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="xs" verticalSpacing={0} data-testid="latest-figures">
        {service.statistics.map((st) => (
          <Group
            key={`${st.type} ${st.descriptor}`}
            justify="space-between"
            wrap="nowrap"
            gap="md"
            py={6}
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
            <Text size="sm" c="dimmed">
              {statisticLabel(st)}
            </Text>
            <Text size="sm" fw={500} ta="right" style={{ overflowWrap: 'anywhere' }}>
              {formatStatistic(st.type, st.value)}
            </Text>
          </Group>
        ))}
      </SimpleGrid>
    </Stack>
  )
}
