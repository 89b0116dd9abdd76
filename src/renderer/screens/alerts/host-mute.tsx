// Mutes on the host screen (administrators only: mutes are theirs): whether the host or a service is
// muted and until when, and "Mute…" for each.
import { Group } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { alertMutesQuery, type AlertMuteRecord } from '../../api/alerts'
import { MutedMark } from '../../components/muted-mark'
import { formatDateTime } from '../reports/time'
import { MuteButton } from './mute-button'

/** The latest end among the active mutes that match. */
function mutedUntil(mutes: readonly AlertMuteRecord[] | undefined, match: (m: AlertMuteRecord) => boolean): number | undefined {
  const ends = (mutes ?? []).filter((m) => m.active && match(m)).map((m) => m.until)
  return ends.length > 0 ? Math.max(...ends) : undefined
}

export function HostMute({ hostId, hostName }: { hostId: number; hostName: string }) {
  const mutes = useQuery(alertMutesQuery)
  const until = mutedUntil(mutes.data?.records, (m) => m.hostid === hostId && m.service === null)
  return (
    <Group gap="xs" wrap="nowrap">
      {until !== undefined && <MutedMark until={until} />}
      <MuteButton size="xs" hostId={hostId} hostName={hostName} />
    </Group>
  )
}

export function ServiceMute({ hostId, hostName, service }: { hostId: number; hostName: string; service: { id: number; name: string } }) {
  const mutes = useQuery(alertMutesQuery)
  const until = mutedUntil(mutes.data?.records, (m) => m.hostid === hostId && m.serviceid === service.id)
  // A table row has little room: a muted service's button says so, and when it ends on hover.
  if (until === undefined) return <MuteButton size="compact-sm" hostId={hostId} hostName={hostName} service={service} />
  return (
    <MuteButton
      size="compact-sm"
      variant="light"
      color="violet"
      label="Muted"
      tooltip={`Muted until ${formatDateTime(until)}`}
      data-testid="muted"
      hostId={hostId}
      hostName={hostName}
      service={service}
    />
  )
}
