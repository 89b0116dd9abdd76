// Alert channels: where notifications go. The list with type and on/off, a test per channel that shows
// the channel's own answer (green, or red with its error), edit and delete.
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { alertChannelsQuery, deleteChannel, testChannel, type AlertChannelRecord } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { ConfirmButton } from '../../components/confirm-button'
import { ChannelForm } from './channel-form'
import { channelTypeForm } from './channel-types'
import { StackedTable } from '../../components/stacked-table'

type Editing = { mode: 'create'; type?: string } | { mode: 'edit'; channel: AlertChannelRecord }

interface Props {
  /** A new channel of this type is asked for (first-run setup's link) */
  newType?: string
  onNewOpened?(): void
}

export function ChannelsPanel({ newType, onNewOpened }: Props) {
  const list = useQuery(alertChannelsQuery)
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing>()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'alerts'] })
  const offered = list.data?.types.includes(newType ?? '') ? newType : undefined
  useEffect(() => {
    if (!offered) return
    setEditing({ mode: 'create', type: offered })
    onNewOpened?.()
  }, [offered, onNewOpened])
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Where notifications go. Rules pick the channels; a channel sends nothing by itself.
        </Text>
        <Button onClick={() => setEditing({ mode: 'create' })} disabled={!list.data}>
          New channel
        </Button>
      </Group>
      <ErrorNote error={list.error} title="The channels could not be loaded" />
      {list.data && list.data.records.length === 0 && (
        <Text data-testid="channels-empty">No channels yet. Add one to be told of failures.</Text>
      )}
      {list.data && list.data.records.length > 0 && (
        <Paper withBorder>
          <StackedTable minWidth={720} highlightOnHover aria-label="Channels">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.records.map((channel) => (
                <ChannelRow key={channel.id} channel={channel} onEdit={() => setEditing({ mode: 'edit', channel })} onDeleted={refresh} />
              ))}
            </Table.Tbody>
          </StackedTable>
        </Paper>
      )}
      {editing && list.data && (
        <ChannelForm
          types={list.data.types}
          channel={editing.mode === 'edit' ? editing.channel : undefined}
          initialType={editing.mode === 'create' ? editing.type : undefined}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined)
            refresh()
          }}
        />
      )}
    </Stack>
  )
}

function ChannelRow({ channel, onEdit, onDeleted }: { channel: AlertChannelRecord; onEdit(): void; onDeleted(): void }) {
  const test = useMutation({ mutationFn: () => testChannel(channel.id) })
  return (
    <>
      <Table.Tr data-channel={channel.name}>
        <Table.Td fw={500}>{channel.name}</Table.Td>
        <Table.Td>{channelTypeForm(channel.type).label}</Table.Td>
        <Table.Td>
          <Badge variant="light" color={channel.enabled ? 'teal' : 'gray'}>
            {channel.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </Table.Td>
        <Table.Td data-actions>
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Button size="xs" variant="default" loading={test.isPending} onClick={() => test.mutate()} aria-label={`Test ${channel.name}`}>
              Test
            </Button>
            <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${channel.name}`}>
              Edit
            </Button>
            <ConfirmButton
              size="xs"
              label="Delete"
              aria-label={`Delete ${channel.name}`}
              title={`Delete the channel ${channel.name}?`}
              message="Rules stop sending to it, and its pending notifications and delivery log go with it."
              onConfirm={() => deleteChannel(channel.id)}
              onDone={onDeleted}
            />
          </Group>
        </Table.Td>
      </Table.Tr>
      {(test.data || test.error) && !test.isPending && (
        <Table.Tr>
          <Table.Td colSpan={4} pt={0} data-wide>
            {test.data && (
              <Alert
                color={test.data.status === 'green' ? 'green' : 'red'}
                py={6}
                role="status"
                data-testid="channel-test"
                data-status={test.data.status}
                title={test.data.status === 'green' ? 'Test sent' : 'Test failed'}
                withCloseButton
                onClose={() => test.reset()}>
                {test.data.description}
              </Alert>
            )}
            <ErrorNote error={test.error} title="The test could not run" />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  )
}
