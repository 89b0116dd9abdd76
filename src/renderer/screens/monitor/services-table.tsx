// The services of a host as Monit reports them: LED, status, monitoring state and mode, schedule, the
// key figures, and actions where the user may run them. A service's name opens its own page.
import { Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core'
import type { ReactNode } from 'react'
import { MonitorState } from '../../../shared/codes'
import type { ServiceEntry, StatisticEntry } from '../../api/status'
import { descriptorName } from '../../components/charts/statistic-charts'
import { Led } from '../../components/led'
import { StackedTable } from '../../components/stacked-table'
import { ServiceActions } from './service-actions'
import { ServiceLink } from './service-link'
import { formatStatistic, keyFigureRank, statisticName } from './statistics'

const modeLabels = ['active', 'passive', 'manual']
/** Figures shown in the table row; the full list is on the service's page. */
const ROW_FIGURES = 3

export function monitoringLabel(state: number): string {
  if (state === MonitorState.Off) return 'Not monitored'
  if (state & MonitorState.Initializing) return 'Initializing'
  if (state & MonitorState.Waiting) return 'Waiting'
  return 'Monitored'
}

/** The service's most telling numeric figures, in the order of keyFigureRank. */
function keyFigures(statistics: readonly StatisticEntry[]): StatisticEntry[] {
  return statistics
    .filter((st) => typeof st.value === 'number')
    .sort((a, b) => keyFigureRank(a.type) - keyFigureRank(b.type))
    .slice(0, ROW_FIGURES)
}

export function statisticLabel(st: StatisticEntry): string {
  return `${statisticName(st.type)}${st.descriptor ? ` (${descriptorName(st.type, st.descriptor)})` : ''}`
}

interface Props {
  hostId: number
  hostName: string
  services: readonly ServiceEntry[]
  mayAct: boolean
  /** More per service, in the last column (administrators: "Mute…"). */
  extra?: (service: ServiceEntry) => ReactNode
  /** A silent host's: why its services' actions are off; their states are then shown greyed, as last known. */
  lastKnown?: string
}

export function ServicesTable({ hostId, hostName, services, mayAct, extra, lastKnown }: Props) {
  if (services.length === 0) return <Text c="dimmed">This host reports no services.</Text>
  return (
    <StackedTable minWidth={extra ? 960 : 820} highlightOnHover verticalSpacing="xs" data-testid="services">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={36}>
            <VisuallyHidden>State</VisuallyHidden>
          </Table.Th>
          <Table.Th>Service</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Monitoring</Table.Th>
          <Table.Th>Every</Table.Th>
          <Table.Th>Figures</Table.Th>
          {(mayAct || extra) && <Table.Th ta="right">Actions</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {services.map((s) => (
          <Table.Tr key={s.id} data-service={s.name} data-last-known={lastKnown !== undefined || undefined}>
            {/* A silent host's LEDs are faded: the last known state, not the state now. */}
            <Table.Td style={lastKnown !== undefined ? { opacity: 0.4 } : undefined}>
              <Led led={s.led} />
            </Table.Td>
            <Table.Td>
              <ServiceLink hostId={hostId} serviceName={s.name} fw={600} />
              <Text size="xs" c="dimmed">
                {s.type}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c={lastKnown !== undefined ? 'dimmed' : undefined} fs={lastKnown !== undefined ? 'italic' : undefined}>
                {s.status}
              </Text>
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <Badge size="sm" variant="light" color={s.monitorstate === 0 || lastKnown !== undefined ? 'gray' : 'teal'} data-monitoring>
                {monitoringLabel(s.monitorstate)}
              </Badge>
              <Text size="xs" c="dimmed">
                {modeLabels[s.monitormode] ?? 'unknown'} mode
              </Text>
            </Table.Td>
            <Table.Td data-label="Checked">
              <Text size="sm" span>
                {s.every || 'every cycle'}
              </Text>
            </Table.Td>
            <Table.Td data-wide>
              {keyFigures(s.statistics).map((st) => (
                <Text key={`${st.type} ${st.descriptor}`} size="xs">
                  {statisticLabel(st)}: {formatStatistic(st.type, st.value)}
                </Text>
              ))}
            </Table.Td>
            {(mayAct || extra) && (
              <Table.Td data-actions>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  {extra?.(s)}
                  {mayAct && <ServiceActions hostId={hostId} hostName={hostName} service={s} disabledReason={lastKnown} />}
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </StackedTable>
  )
}
