// An uptime percentage as a bar and a figure. The bar shows the down part in red beside the up part, so a
// 0 % bar reads as down, not as an empty "no data" track (issue 28); a figure that does not exist (a host
// that monitors no service) is said in words instead.
import { Group, Progress, Text } from '@mantine/core'

/** The up part's colour by how much is up; never red, which is the down part's. */
function upColor(uptime: number): string {
  return uptime >= 99.9 ? 'green' : uptime >= 99 ? 'yellow' : 'orange'
}

interface UptimeBarProps {
  /** Percent, or null when there is nothing to measure. */
  uptime: number | null
  /** What the figure is ("Agent reporting", "Services up"), for screen readers. */
  label?: string
  /** Said instead of a bar when `uptime` is null. */
  none?: string
}

export function UptimeBar({ uptime, label = 'Uptime', none = 'nothing to measure' }: UptimeBarProps) {
  if (uptime === null) {
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    )
  }
  return (
    <Group gap="sm" wrap="nowrap">
      <Progress.Root w={{ base: 60, sm: 120 }} size="md">
        <Progress.Section value={uptime} color={upColor(uptime)} aria-label={`${label} ${uptime}%`} />
        {uptime < 100 && <Progress.Section value={100 - uptime} color="red" aria-label={`${label}: down ${(100 - uptime).toFixed(2)}%`} />}
      </Progress.Root>
      <Text size="sm" ff="monospace">
        {uptime.toFixed(2)}%
      </Text>
    </Group>
  )
}
