// A silent host's services are what Monit last reported, not their state now: said above them, with
// when, and the reason their actions are off (the agent cannot be reached to run them).
import { Alert } from '@mantine/core'
import { formatAge, formatWhen } from '../../components/relative-time'

/** Why a silent host's service actions are off, for the disabled button; `lastreport` undefined while it loads. */
export function silentActionsReason(lastreport: number | undefined, now: number): string {
  const since = lastreport === undefined ? '' : ` since ${formatWhen(lastreport, now)}`
  return `Monit on this host has not reported${since}: actions are off until it reports again`
}

interface LastKnownProps {
  lastreport: number | undefined
  now: number
  /** What the note speaks of: the host page's services, or the one service of its own page. */
  subject?: 'The services below are' | 'This service is'
}

export function LastKnownNote({ lastreport, now, subject = 'The services below are' }: LastKnownProps) {
  const actions = subject === 'This service is' ? 'its actions are' : 'their actions are'
  return (
    <Alert color="gray" variant="light" title="Last known state" data-testid="last-known">
      {lastreport !== undefined && `Last report at ${formatWhen(lastreport, now)} (${formatAge(lastreport, now)} ago). `}
      {subject} as Monit last reported, and {actions} off until it reports again.
    </Alert>
  )
}
