// What an administrator does to the hosts chosen in the list: add them to a group, set them Active,
// Inactive or Ignored, or delete them (after a confirmation naming how many). The list refreshes after.
import { Button, Group, Menu, Paper, Select, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { HostStatus, hostStatusLabel } from '../../../shared/codes'
import { adminGroupsQuery } from '../../api/admin'
import { addHostsToGroup, deleteHosts, setHostsStatus } from '../../api/host-bulk'
import { ErrorNote } from '../../components/error-note'
import { ConfirmButton } from '../../components/confirm-button'

interface Props {
  ids: readonly number[]
  onDone: () => void
}

const hosts = (n: number) => `${n.toLocaleString()} host${n === 1 ? '' : 's'}`

export function HostBulkActions({ ids, onDone }: Props) {
  const queryClient = useQueryClient()
  const [done, setDone] = useState('')
  const finish = (message: string) => {
    setDone(message)
    onDone()
    void queryClient.invalidateQueries({ queryKey: ['status'] })
    void queryClient.invalidateQueries({ queryKey: ['admin'] })
  }
  const status = useMutation({
    mutationFn: (to: number) => setHostsStatus(ids, to),
    onSuccess: (_, to) => finish(`${hosts(ids.length)} set to ${hostStatusLabel[to as HostStatus]}.`)
  })
  if (ids.length === 0)
    return done ? (
      <Text size="sm" c="dimmed" role="status">
        {done}
      </Text>
    ) : null
  return (
    <Paper withBorder p="xs" data-testid="bulk-actions" aria-label="Actions on the selected hosts" component="section">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={600}>
          {hosts(ids.length)} selected
        </Text>
        <AddToGroup ids={ids} onAdded={(name) => finish(`${hosts(ids.length)} added to ${name}.`)} />
        <Menu position="bottom-start">
          <Menu.Target>
            <Button size="xs" variant="default" loading={status.isPending}>
              Set status
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {[HostStatus.Active, HostStatus.Inactive, HostStatus.Ignored].map((s) => (
              <Menu.Item key={s} onClick={() => status.mutate(s)}>
                {hostStatusLabel[s]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <ConfirmButton
          size="xs"
          label="Delete"
          aria-label={`Delete ${hosts(ids.length)}`}
          title={`Delete ${hosts(ids.length)}?`}
          message={`Their services, events and history go with them. A host that reports again comes back as new.`}
          onConfirm={() => deleteHosts(ids)}
          onDone={() => finish(`${hosts(ids.length)} deleted.`)}
        />
        <Button
          size="xs"
          variant="subtle"
          onClick={() => {
            setDone('')
            onDone()
          }}>
          Clear selection
        </Button>
      </Group>
      <ErrorNote error={status.error} title="The status was not set on every host" />
    </Paper>
  )
}

function AddToGroup({ ids, onAdded }: { ids: readonly number[]; onAdded: (groupName: string) => void }) {
  const groups = useQuery(adminGroupsQuery)
  const [group, setGroup] = useState<string | null>(null)
  const name = groups.data?.groups.find((g) => String(g.id) === group)?.name ?? ''
  const add = useMutation({ mutationFn: () => addHostsToGroup(Number(group), ids), onSuccess: () => onAdded(name) })
  return (
    <Group gap={6} wrap="nowrap">
      <Select
        size="xs"
        w={170}
        aria-label="Group to add them to"
        placeholder={groups.data?.groups.length === 0 ? 'No host groups' : 'Host group'}
        data={(groups.data?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        value={group}
        onChange={setGroup}
        error={(groups.error ?? add.error)?.message}
      />
      <Button size="xs" variant="light" disabled={group === null} loading={add.isPending} onClick={() => add.mutate()}>
        Add to group
      </Button>
    </Group>
  )
}
