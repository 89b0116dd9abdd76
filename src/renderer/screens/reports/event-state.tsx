// An event's state (0 success, 1 error, 2 change) as a coloured word, readable without the colour.
import { Badge } from '@mantine/core'

export const eventStates = [
  { value: 1, label: 'Error', color: 'red' },
  { value: 2, label: 'Change', color: 'orange' },
  { value: 0, label: 'Success', color: 'green' }
] as const

export function EventStateBadge({ state }: { state: number }) {
  const look = eventStates.find((s) => s.value === state) ?? { label: 'Unknown', color: 'gray' }
  return <Badge color={look.color} variant="light" data-state={state}>{look.label}</Badge>
}
