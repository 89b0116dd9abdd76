// Hosts needing attention: red first, then orange, then those whose Monit stopped reporting (also red,
// but their services' states are stale). Each links to the host; the rest are one click away.
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { HostPage, HostStatusEntry } from '../../api/status'
import { LedDot } from './led-dot'

const order = (h: HostStatusEntry) => (h.heartbeat === 0 ? 2 : h.led)

export function AttentionList({ page }: { page: HostPage }) {
  const hosts = [...page.records].sort((a, b) => order(a) - order(b))
  if (hosts.length === 0) return <Text c="dimmed" data-testid="attention-empty">Every host is fine: nothing needs attention.</Text>
  return (
    <Stack gap={4} data-testid="attention">
      {hosts.map((h) => (
        <Group key={h.id} gap="sm" wrap="nowrap" justify="space-between">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <LedDot led={h.led} />
            <Anchor renderRoot={(props) => <Link {...props} to="/hosts/$hostId" params={{ hostId: String(h.id) }} />} fw={600} truncate>{h.hostname}</Anchor>
            <Text size="sm" c="dimmed" truncate>{h.status}</Text>
          </Group>
          {h.heartbeat === 0 && <Badge color="red" variant="light" style={{ flexShrink: 0 }}>No report</Badge>}
        </Group>
      ))}
      {page.totalRecords > hosts.length && (
        <Anchor renderRoot={(props) => <Link {...props} to="/hosts" search={{ led: [0, 1] }} />} size="sm">
          All {page.totalRecords.toLocaleString()} hosts needing attention
        </Anchor>
      )}
    </Stack>
  )
}
