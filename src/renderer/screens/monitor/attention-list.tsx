// Hosts needing attention in the server's order: silent first (their services' states are stale), then
// red, then orange, each the longest failing first. Each says what fails and since when, and links to
// the host; long names wrap instead of vanishing behind an ellipsis.
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { HostOverviewEntry, OverviewPage } from '../../api/overview'
import { MutedMark } from '../../components/muted-mark'
import { formatAge, formatWhen } from '../../components/relative-time'
import { useNow } from '../../components/use-now'
import { LedDot } from './led-dot'

export function AttentionList({ page }: { page: OverviewPage<HostOverviewEntry> }) {
  const now = useNow()
  if (page.records.length === 0)
    return (
      <Text c="dimmed" data-testid="attention-empty">
        Every host is fine: nothing needs attention.
      </Text>
    )
  return (
    <Stack gap={6} data-testid="attention">
      {page.records.map((h) => (
        <Group key={h.id} gap="sm" wrap="nowrap" align="flex-start" data-attention-host={h.hostname}>
          <LedDot led={h.led} host />
          <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
              <Anchor
                renderRoot={(props) => <Link {...props} to="/hosts/$hostId" params={{ hostId: String(h.id) }} />}
                fw={600}
                style={{ overflowWrap: 'anywhere' }}>
                {h.hostname}
              </Anchor>
              {h.heartbeat === 0 && (
                <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
                  No report
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {what(h)}
              {h.since !== null && (
                <>
                  {' '}
                  ·{' '}
                  <span title={new Date(h.since * 1000).toLocaleString()}>
                    {h.heartbeat === 0 ? 'silent' : 'failing'} since {formatWhen(h.since, now)} ({formatAge(h.since, now)})
                  </span>
                </>
              )}
            </Text>
            {h.muted !== null && (
              <div>
                <MutedMark until={h.muted} size="sm" />
              </div>
            )}
          </Stack>
        </Group>
      ))}
      {page.totalRecords > page.records.length && (
        <Anchor renderRoot={(props) => <Link {...props} to="/hosts" search={{ led: [0, 1] }} />} size="sm">
          All {page.totalRecords.toLocaleString()} hosts needing attention
        </Anchor>
      )}
    </Stack>
  )
}

/** The failing services by name; a silent host's last known ones are not news, its silence is. */
function what(h: HostOverviewEntry): string {
  if (h.heartbeat === 0) return h.status
  if (h.failing.length === 0) return h.status
  const names = h.failing
    .slice(0, 4)
    .map((s) => s.name)
    .join(', ')
  const more = h.failing.length > 4 ? ` and ${h.failing.length - 4} more` : ''
  return `${h.failing.some((s) => s.led === 0) ? 'Failing' : 'Changed'}: ${names}${more}`
}
