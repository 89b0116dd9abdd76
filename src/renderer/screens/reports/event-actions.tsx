// Dismissing an active error (reports/events/dismiss): it then leaves the "Active, not dismissed" list.
// The outcome, good or bad, shows right beside the button.
import { Button, Group, Stack, Text } from '@mantine/core'
import { EventState } from '../../../shared/codes'
import { eventActivity, useDismissEvent, type EventDetail } from '../../api/events'
import { ErrorNote } from '../../components/error-note'

export function EventActions({ event }: { event: EventDetail }) {
  const isError = event.eventstate === EventState.Failed
  const activity = eventActivity(event)
  const dismiss = useDismissEvent(event.id)
  if (!isError) return null
  return (
    <Stack>
      <Group gap="sm" align="center">
        {activity === 'active' && (
          <Button color="orange" variant="light" loading={dismiss.isPending} onClick={() => dismiss.mutate()}>
            Dismiss this error
          </Button>
        )}
        <Text size="sm" c="dimmed" role="status" data-testid="event-activity">
          {activity === 'active' && 'This error is still active.'}
          {activity === 'dismissed' && 'Dismissed: this active error no longer shows among the errors to look at.'}
          {activity === 'over' && 'This error is over: the service has recovered or reported again since.'}
        </Text>
      </Group>
      <ErrorNote error={dismiss.error} title="The event could not be dismissed" />
    </Stack>
  )
}
