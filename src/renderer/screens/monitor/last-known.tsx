// A silent host's services are what Monit last reported, not their state now: said above them, with
// when, and the reason their actions are off (the agent cannot be reached to run them).
import { Alert } from '@mantine/core'
import { formatAge, formatWhen } from '../../components/relative-time'

/** Why a silent host's service actions are off, for the disabled button; `lastreport` undefined while it loads. */
export function silentActionsReason(lastreport: number | undefined, now: number): string {
  const since = lastreport === undefined ? '' : ` since ${formatWhen(lastreport, now)}`
  return `Monit on this host has not reported${since}: actions are off until it reports again`
}

export function LastKnownNote({ lastreport, now }: { lastreport: number | undefined; now: number }) {
  return (
    <Alert color="gray" variant="light" title="Last known state" data-testid="last-known">
      {lastreport !== undefined && `Last report at ${formatWhen(lastreport, now)} (${formatAge(lastreport, now)} ago). `}
      The services below are as Monit last reported them, and their actions are off until it reports again.
    </Alert>
  )
}
