// The report's span and its two figures (issue 28): "agent reporting" (the share of the time the agent
// reported; its silence is the downtime M/Monit counts) and "services up" (the time-weighted share of the
// monitored services that were up), for one host or as the mean over the hosts; and when the server
// itself was not running (unknown time, not counted as anyone's downtime).
import { Card, Group, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import type { UptimeReport } from '../../api/uptime'
import { ServerDowntimeStrip } from './server-downtime'
import { formatDateTime } from './time'
import { UptimeBar } from './uptime-bar'


interface UptimeSummaryProps {
  report: UptimeReport
  itemsLabel: string
  /** One host's agent reporting (its Monit item); without it, the figures are the means over the report's hosts. */
  agentReporting?: number
}

export function UptimeSummary({ report, itemsLabel, agentReporting }: UptimeSummaryProps) {
  const mean = agentReporting === undefined ? ', mean of hosts' : ''
  return (
    <Card withBorder padding="sm">
      <Stack gap="xs">
      <Group gap="xl" wrap="wrap">
        <Figure label="Period">
          <Text size="sm" data-testid="uptime-period">
            {formatDateTime(report.datefrom)} – {formatDateTime(report.dateto)}
          </Text>
        </Figure>
        <Figure label={`Agent reporting${mean}`} testId="agent-reporting">
          <UptimeBar uptime={agentReporting ?? report.uptime} label="Agent reporting" />
        </Figure>
        <Figure label={`Services up${mean}`} testId="services-up">
          <UptimeBar uptime={report.servicesup} label="Services up" none="no monitored services" />
        </Figure>
        <Figure label={itemsLabel}>
          <Text size="sm">{report.items.length.toLocaleString()}</Text>
        </Figure>
        {report.serverdown.length > 0 && (
          <Figure label="Server not running">
            <Group gap="sm" wrap="nowrap">
              <ServerDowntimeStrip report={report} />
              <Text size="sm" data-testid="server-downtime">
                {report.serverdowntime} unknown
              </Text>
            </Group>
          </Figure>
        )}
      </Group>
        <Text size="xs" c="dimmed">
          Agent reporting: the share of the time the host’s Monit agent reported. Services up: the share of the time its
          monitored services were up, each weighing the same. Time the server was not running, or before a host’s first
          report, counts as neither.
        </Text>
      </Stack>
    </Card>
  )
}

function Figure({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {children}
    </Stack>
  )
}
