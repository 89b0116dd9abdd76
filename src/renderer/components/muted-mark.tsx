// "Muted until …": a host or service whose alerts are muted, on every screen that shows it, so that a
// muted host never looks like one that would page someone.
import { Badge, type MantineSize } from '@mantine/core'

const until = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })

/** When a mute ends, short: "Nov 28, 1:09 AM". */
export function formatMuteEnd(unixSeconds: number): string {
  return until.format(new Date(unixSeconds * 1000))
}

export function MutedMark({ until: end, size = 'md' }: { until: number; size?: MantineSize }) {
  return (
    <Badge size={size} variant="light" color="violet" tt="none" style={{ flexShrink: 0 }} data-testid="muted">
      Muted until {formatMuteEnd(end)}
    </Badge>
  )
}
