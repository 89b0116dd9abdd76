// Active mutes (maintenance): host, service, until, reason and who set it; each can end early. Expired
// mutes leave the list by themselves (the server answers only active ones), unless "Show ended mutes"
// asks for all of them.
import { Anchor, Badge, Paper, Stack, Switch, Table, Text } from '@mantine/core'
import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { endMute, mutesQuery } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { ConfirmButton } from '../../components/confirm-button'
import { formatDateTime } from '../reports/time'
import { StackedTable } from '../../components/stacked-table'

export function MutesPanel() {
  // Re-read each minute: a mute that has run out leaves the list without anyone acting.
  const [ended, setEnded] = useState(false)
  const list = useQuery({ ...mutesQuery(ended), refetchInterval: 60_000 })
  const queryClient = useQueryClient()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'alerts', 'mutes'] })
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        A muted host or service sends no alert until its mute ends. Mute one with "Mute…" on the host's page.
      </Text>
      <Switch label="Show ended mutes" checked={ended} onChange={(e) => setEnded(e.currentTarget.checked)} />
      <ErrorNote error={list.error} title="The mutes could not be loaded" />
      {list.data && list.data.records.length === 0 && (
        <Text data-testid="mutes-empty">{ended ? 'No mute was ever set.' : 'Nothing is muted.'}</Text>
      )}
      {list.data && list.data.records.length > 0 && (
        <Paper withBorder>
          <StackedTable minWidth={760} highlightOnHover aria-label="Mutes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Host</Table.Th>
                <Table.Th>Service</Table.Th>
                <Table.Th>Until</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Set by</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.records.map((m) => {
                const what = m.service ? `${m.service} on ${m.hostname}` : m.hostname
                return (
                  <Table.Tr key={m.id} data-mute={what}>
                    <Table.Td>
                      <Anchor
                        renderRoot={(props) => <Link {...props} to="/hosts/$hostId" params={{ hostId: String(m.hostid) }} />}
                        size="sm">
                        {m.hostname}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={m.service ? undefined : 'dimmed'}>
                        {m.service ?? 'the whole host'}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label="Until">
                      <Text size="sm">{formatDateTime(m.until)}</Text>
                      {!m.active && (
                        <Badge size="xs" color="gray" variant="light">
                          Ended
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td data-label="Reason">
                      <Text size="sm">{m.reason || '—'}</Text>
                    </Table.Td>
                    <Table.Td data-label="Set by">
                      <Text size="sm">{m.createdby}</Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(m.createdat)}
                      </Text>
                    </Table.Td>
                    <Table.Td data-actions>
                      {m.active && (
                        <ConfirmButton
                          size="xs"
                          label="End the mute"
                          aria-label={`End the mute of ${what}`}
                          title={`End the mute of ${what}?`}
                          message="Alerts for it are sent again from now on."
                          onConfirm={() => endMute(m.id)}
                          onDone={refresh}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </StackedTable>
        </Paper>
      )}
    </Stack>
  )
}
