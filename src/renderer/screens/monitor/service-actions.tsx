// Start, stop, restart, monitor or unmonitor one service through the server, which calls the agent.
// The outcome shows next to the service: sending, accepted (the agent's report then changes the state
// live), or the agent's own error.
import { Button, Group, Loader, Menu, Text } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '../../api/client'
import { runServiceAction, serviceActions, type ServiceAction, type ServiceEntry } from '../../api/status'

const actionLabels: Record<ServiceAction, string> = {
  start: 'Start', stop: 'Stop', restart: 'Restart', monitor: 'Monitor', unmonitor: 'Unmonitor'
}

export function ServiceActions({ hostId, service }: { hostId: number; service: ServiceEntry }) {
  const queryClient = useQueryClient()
  const action = useMutation({
    mutationFn: (what: ServiceAction) => runServiceAction(hostId, service.id, what),
    // The agent reports the new state within a poll; the live stream refreshes the host then.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['status', 'host', hostId] })
  })
  const unmonitored = service.monitorstate === 0
  // What makes sense now comes first; every action stays available, as in Monit's own page.
  const offered = serviceActions.filter((a) => (unmonitored ? a !== 'unmonitor' : a !== 'monitor'))
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <ActionFeedback pending={action.isPending} error={action.error} done={action.isSuccess ? action.variables : undefined} />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="default" disabled={action.isPending} aria-label={`Actions for ${service.name}`}>Actions</Button>
        </Menu.Target>
        <Menu.Dropdown>
          {offered.map((a) => (
            <Menu.Item key={a} onClick={() => action.mutate(a)}>{actionLabels[a]}</Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  )
}

function ActionFeedback({ pending, error, done }: { pending: boolean; error: unknown; done?: ServiceAction }) {
  if (pending) return <Group gap={4} wrap="nowrap"><Loader size="xs" /><Text size="xs" c="dimmed">Sending…</Text></Group>
  if (error) return <Text size="xs" c="red" role="alert" maw={260}>{errorMessage(error)}</Text>
  if (done) return <Text size="xs" c="teal" role="status">{actionLabels[done]} accepted by the agent</Text>
  return null
}
