// The report's span and its average uptime and downtime over all items, and when the server itself was
// not running (unknown time, not counted as anyone's downtime).
import { Card, Group, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import type { UptimeReport } from '../../api/uptime'
import { ServerDowntimeStrip } from './server-downtime'
import { formatDateTime } from './time'
import { UptimeBar } from './uptime-table'

export function UptimeSummary({ report, itemsLabel }: { report: UptimeReport; itemsLabel: string }) {
  return (
    <Card withBorder padding="sm">
      <Group gap="xl" wrap="wrap">
        <Figure label="Period">
          <Text size="sm" data-testid="uptime-period">{formatDateTime(report.datefrom)} – {formatDateTime(report.dateto)}</Text>
        </Figure>
        <Figure label="Average uptime"><UptimeBar uptime={report.uptime} /></Figure>
        <Figure label="Average downtime"><Text size="sm">{report.downtime}</Text></Figure>
        <Figure label={itemsLabel}><Text size="sm">{report.items.length.toLocaleString()}</Text></Figure>
        {report.serverdown.length > 0 && (
          <Figure label="Server not running">
            <Group gap="sm" wrap="nowrap">
              <ServerDowntimeStrip report={report} />
              <Text size="sm" data-testid="server-downtime">{report.serverdowntime} unknown</Text>
            </Group>
          </Figure>
        )}
      </Group>
    </Card>
  )
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>{label}</Text>
      {children}
    </Stack>
  )
}
