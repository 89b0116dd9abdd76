// Start, stop, restart, monitor or unmonitor one service through the server, which calls the agent.
// Only the actions that make sense for the service are offered (service-action-choice.ts); stop and
// restart ask first, naming the service and its host. The outcome shows next to the service: sending,
// accepted (the agent's report then changes the state live), or the agent's own error.
import { Button, Group, Loader, Menu, Text, Tooltip } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client'
import { runServiceAction, type ServiceAction, type ServiceEntry } from '../../api/status'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { useResetAfterOutage } from '../../live/use-reset-after-outage'
import { asksFirst, offeredActions } from './service-action-choice'

const actionLabels: Record<ServiceAction, string> = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  monitor: 'Monitor',
  unmonitor: 'Unmonitor'
}

const consequences: Partial<Record<ServiceAction, string>> = {
  stop: 'Monit runs its stop program and stops monitoring it until it is started again.',
  restart: 'Monit runs its restart program (or stop, then start); the service is briefly unavailable.'
}

interface ServiceActionsProps {
  hostId: number
  hostName: string
  service: ServiceEntry
  /** Why no action can run now (a silent host's agent cannot be reached): the button is shown disabled, saying so. */
  disabledReason?: string
}

export function ServiceActions({ hostId, hostName, service, disabledReason }: ServiceActionsProps) {
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<ServiceAction>()
  const action = useMutation({
    mutationFn: (what: ServiceAction) => runServiceAction(hostId, service.id, what),
    // The agent reports the new state within a poll; the live stream refreshes the host then.
    onSuccess: () => {
      setAsking(undefined)
      return queryClient.invalidateQueries({ queryKey: ['status', 'host', hostId] })
    }
  })
  useResetAfterOutage(action)
  const choose = (a: ServiceAction) => {
    action.reset()
    if (asksFirst(a)) setAsking(a)
    else action.mutate(a)
  }
  if (disabledReason !== undefined) {
    return (
      <Tooltip label={disabledReason} multiline w={260} withArrow>
        <Button
          size="compact-sm"
          variant="default"
          data-disabled
          aria-disabled="true"
          aria-label={`Actions for ${service.name}: ${disabledReason}`}>
          Actions
        </Button>
      </Tooltip>
    )
  }
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {asking === undefined && (
        <ActionFeedback pending={action.isPending} error={action.error} done={action.isSuccess ? action.variables : undefined} />
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="default" disabled={action.isPending} aria-label={`Actions for ${service.name}`}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {offeredActions(service).map((a) => (
            <Menu.Item key={a} onClick={() => choose(a)}>
              {actionLabels[a]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {asking && (
        <ConfirmDialog
          opened
          onClose={() => setAsking(undefined)}
          title={`${actionLabels[asking]} ${service.name} on ${hostName}?`}
          message={`${actionLabels[asking]} the service ${service.name} on the host ${hostName}. ${consequences[asking] ?? ''}`}
          label={`${actionLabels[asking]} ${service.name}`}
          pending={action.isPending}
          error={action.error}
          onConfirm={() => action.mutate(asking)}
        />
      )}
    </Group>
  )
}

function ActionFeedback({ pending, error, done }: { pending: boolean; error: unknown; done?: ServiceAction }) {
  if (pending)
    return (
      <Group gap={4} wrap="nowrap">
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          Sending…
        </Text>
      </Group>
    )
  if (error)
    return (
      <Text size="xs" c="red" role="alert" maw={260}>
        {errorMessage(error)}
      </Text>
    )
  if (done)
    return (
      <Text size="xs" c="teal" role="status">
        {actionLabels[done]} accepted by the agent
      </Text>
    )
  return null
}
