// Hosts as administrators manage them: every host (virtualised: 10,000 rows stay fast), filtered by
// name or address, each opening its editor; the agents the collector refused; and the bulk removal of
// hosts not reporting for N days. "Inactive" is only ever the host status (Monit stopped), as in the editor.
import { Anchor, Badge, Box, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useDeferredValue, useMemo, useRef, useState } from 'react'
import { adminHostsQuery, deleteInactiveHosts, type AdminHostEntry } from '../api/admin'
import { ErrorNote } from '../components/error-note'
import { ConfirmButton } from '../components/confirm-button'
import { RefusedAgents } from './admin/refused-agents'
import stacked from '../components/stacked-table.module.css'

const DAY = 86_400
const ROW_HEIGHT = 41
const statusColor = { Active: 'green', Inactive: 'gray', Ignored: 'yellow' } as const

export function AdminHostsScreen() {
  const hosts = useQuery(adminHostsQuery)
  const [text, setText] = useState('')
  const pattern = useDeferredValue(text.trim().toLowerCase())
  const shown = useMemo(
    () =>
      (hosts.data?.records ?? []).filter(
        (h) =>
          !pattern ||
          h.hostname.toLowerCase().includes(pattern) ||
          h.ipaddr.includes(pattern) ||
          h.description.toLowerCase().includes(pattern)
      ),
    [hosts.data, pattern]
  )

  return (
    <Stack gap="md">
      <Title order={2}>Host management</Title>
      <Text c="dimmed" size="sm">
        Hosts register themselves when their Monit agent first reports. Here you name them, tell the server how to call the agent back, and
        remove hosts that are gone.
      </Text>
      <ErrorNote error={hosts.error} title="The host list could not be loaded" />
      {hosts.data && (
        <>
          <Group justify="space-between" align="flex-end">
            <TextInput
              label="Filter"
              placeholder="Name, address or description"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={320}
            />
            <Text size="sm" c="dimmed" data-testid="admin-hosts-count">
              {shown.length === hosts.data.totalRecords
                ? `${hosts.data.totalRecords} hosts`
                : `${shown.length} of ${hosts.data.totalRecords} hosts`}
              {` · ${hosts.data.inactive} not reporting`}
            </Text>
          </Group>
          {hosts.data.totalRecords === 0 ? (
            <Text data-testid="admin-hosts-empty">
              No hosts yet. A host appears here when its Monit agent first reports to this server.
            </Text>
          ) : shown.length === 0 ? (
            <Text c="dimmed">No host matches this filter.</Text>
          ) : (
            <HostRows hosts={shown} />
          )}
        </>
      )}
      <RefusedAgents />
      {hosts.data && <DeleteNotReporting notReporting={hosts.data.inactive} />}
    </Stack>
  )
}

function HostRows({ hosts }: { hosts: AdminHostEntry[] }) {
  const scroller = useRef<HTMLDivElement>(null)
  const rows = useVirtualizer({
    count: hosts.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10
  })
  const items = rows.getVirtualItems()
  const before = items.length ? items[0].start : 0
  const after = items.length ? rows.getTotalSize() - items[items.length - 1].end : 0
  return (
    <Paper withBorder>
      <Box ref={scroller} style={{ maxHeight: 'calc(100vh - 360px)', minHeight: 120, overflow: 'auto' }}>
        <Table stickyHeader highlightOnHover aria-label="Hosts" aria-rowcount={hosts.length + 1} className={stacked.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Monit</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Description</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {before > 0 && <tr style={{ height: before }} />}
            {items.map((item) => {
              const host = hosts[item.index]
              return (
                // Measured: a row is taller on a phone, where it is a card.
                <Table.Tr
                  key={host.id}
                  ref={rows.measureElement}
                  data-index={item.index}
                  style={{ height: ROW_HEIGHT }}
                  aria-rowindex={item.index + 2}>
                  <Table.Td>
                    <Anchor href={`#/admin/hosts/${host.id}`}>{host.hostname}</Anchor>
                  </Table.Td>
                  <Table.Td ff="monospace" data-label="Address">
                    {host.ipaddr || '—'}
                  </Table.Td>
                  <Table.Td data-label="Monit">{host.agentversion}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={statusColor[host.status]}>
                      {host.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-wide>
                    <Text size="sm" lineClamp={1}>
                      {host.description}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )
            })}
            {after > 0 && <tr style={{ height: after }} />}
          </Table.Tbody>
        </Table>
      </Box>
    </Paper>
  )
}

function DeleteNotReporting({ notReporting }: { notReporting: number }) {
  const queryClient = useQueryClient()
  const [days, setDays] = useState<number | string>(30)
  const [deleted, setDeleted] = useState<number>()
  const valid = typeof days === 'number' && Number.isInteger(days) && days >= 0
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Remove hosts that are gone
        </Title>
        <Text size="sm">
          Deletes every host that has not reported for at least the given number of days (its Monit stopped, or its agent silent), with its
          services, events and statistics.{' '}
          {notReporting === 0 ? 'Every host reports now.' : `${notReporting} host${notReporting === 1 ? ' does' : 's do'} not report now.`}
        </Text>
        <Group align="flex-end">
          <NumberInput
            label="Not reporting for at least (days)"
            min={0}
            max={3650}
            allowDecimal={false}
            value={days}
            onChange={setDays}
            w={220}
            error={valid ? undefined : 'Enter a whole number of days'}
          />
          <ConfirmButton
            label="Delete hosts not reporting"
            title="Delete hosts not reporting?"
            disabled={!valid || notReporting === 0}
            message={`Every host that has not reported for ${days} days or more is deleted with all its history. This cannot be undone.`}
            onConfirm={async () => setDeleted((await deleteInactiveHosts(Number(days) * DAY)).deleted)}
            onDone={() => void queryClient.invalidateQueries({ queryKey: ['admin'] })}
          />
        </Group>
        {deleted !== undefined && (
          <Text size="sm" role="status" data-testid="inactive-deleted">
            Deleted {deleted} host{deleted === 1 ? '' : 's'}.
          </Text>
        )}
      </Stack>
    </Paper>
  )
}
