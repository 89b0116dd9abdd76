// Dismissing an active error (reports/events/dismiss): it then leaves the "Active, not dismissed" list.
// There is no undoing it, so the button asks first, naming the service and host; the outcome, good or
// bad, shows right beside the button (a refusal inside the question).
import { Button, Group, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { EventState } from '../../../shared/codes'
import { eventActivity, useDismissEvent, type EventDetail } from '../../api/events'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { useResetAfterOutage } from '../../live/use-reset-after-outage'

export function EventActions({ event }: { event: EventDetail }) {
  const isError = event.eventstate === EventState.Failed
  const activity = eventActivity(event)
  const dismiss = useDismissEvent(event.id)
  useResetAfterOutage(dismiss)
  const [asking, { open, close }] = useDisclosure()
  if (!isError) return null
  return (
    <Stack>
      <Group gap="sm" align="center">
        {activity === 'active' && (
          <Button color="orange" variant="light" onClick={() => { dismiss.reset(); open() }}>Dismiss this error</Button>
        )}
        <Text size="sm" c="dimmed" role="status" data-testid="event-activity">
          {activity === 'active' && 'This error is still active.'}
          {activity === 'dismissed' && 'Dismissed: this active error no longer shows among the errors to look at.'}
          {activity === 'over' && 'This error is over: the service has recovered or reported again since.'}
        </Text>
      </Group>
      <ConfirmDialog opened={asking} onClose={close} title="Dismiss this error?" color="orange" label="Dismiss"
        message={`The error of ${event.servicename} on ${event.host} leaves the list of errors to look at. This cannot be undone; `
          + 'a new failure of the service shows again.'}
        pending={dismiss.isPending} error={dismiss.error} onConfirm={() => dismiss.mutate(undefined, { onSuccess: close })} />
    </Stack>
  )
}
