// An uptime row's event count, linking to those events: the host over the report's period.
import { Text } from '@mantine/core'
import { AnchorLink } from './anchor-link'

interface EventsLinkProps {
  count: number
  hostId: number
  from: number
  to: number
  label: string
}

export function EventsLink({ count, hostId, from, to, label }: EventsLinkProps) {
  if (count === 0) return <Text size="sm" c="dimmed">0</Text>
  return (
    <AnchorLink to="/events" search={{ host: [hostId], from, to }} size="sm" aria-label={`${count} events of ${label}`}>
      {count.toLocaleString()}
    </AnchorLink>
  )
}
