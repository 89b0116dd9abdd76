// A host's uptime over the last 24 hours on its page, the same two figures as the uptime report (issue 28):
// its agent reporting and its services up, linking to the report of its services.
import { Card, Group, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Range } from '../../../shared/ranges'
import { uptimeServicesQuery } from '../../api/uptime'
import { AnchorLink } from '../reports/anchor-link'
import { UptimeBar } from '../reports/uptime-bar'

/** The `Monit` item of reports/uptime/get: the agent's own reporting. */
const MONIT_ITEM_ID = 0
const LAST_DAY = { range: Range.Last24Hours }

export function HostUptime({ hostId }: { hostId: number }) {
  const report = useQuery(uptimeServicesQuery(hostId, LAST_DAY))
  if (!report.data) return null
  const agent = report.data.items.find((i) => i.id === MONIT_ITEM_ID)
  return (
    <Card withBorder padding="sm" data-testid="host-uptime">
      <Group gap="xl" wrap="wrap" align="flex-end">
        <Text size="sm" fw={500}>
          Last 24 hours
        </Text>
        {agent && (
          <Stack gap={2} data-testid="agent-reporting">
            <Text size="xs" c="dimmed">
              Agent reporting
            </Text>
            <UptimeBar uptime={agent.uptime} label="Agent reporting" />
          </Stack>
        )}
        <Stack gap={2} data-testid="services-up">
          <Text size="xs" c="dimmed">
            Services up
          </Text>
          <UptimeBar uptime={report.data.servicesup} label="Services up" none="no monitored services" />
        </Stack>
        <AnchorLink to="/uptime/$hostId" params={{ hostId: String(hostId) }} search={LAST_DAY} size="sm">
          Uptime per service
        </AnchorLink>
      </Group>
    </Card>
  )
}
