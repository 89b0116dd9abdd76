// "Agents that could not log in" (issue 28): what the collector turned away, so that a host that never
// appears has an answer (a wrong password, an unknown user, a missing permission, a message too large).
// On the dashboard for administrators while there is one; in Administration › Hosts always. Stacked rows: fits a phone.
import { Badge, Button, Card, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useProfile } from '../../api/profile'
import { dismissRefusedAgent, refusedAgentsQuery, type RefusedAgent } from '../../api/refused-agents'
import { ErrorNote } from '../../components/error-note'
import { formatAge, formatWhen } from '../../components/relative-time'
import { useNow } from '../../components/use-now'
import { refusalCause, refusalLabel } from '../../../shared/api/refusal-reasons'

/** The dashboard's: administrators only (addresses and user names tried), and only while there is one. */
export function RefusedAgentsForAdmins() {
  return useProfile().admin ? <RefusedAgents onlyWhenAny /> : null
}

export function RefusedAgents({ onlyWhenAny = false }: { onlyWhenAny?: boolean }) {
  const refused = useQuery(refusedAgentsQuery)
  const queryClient = useQueryClient()
  const now = useNow()
  const dismiss = useMutation({
    mutationFn: dismissRefusedAgent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: refusedAgentsQuery.queryKey })
  })
  const records = refused.data?.records ?? []
  if (onlyWhenAny && records.length === 0) return null
  return (
    <Card withBorder data-testid="refused-agents">
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Title order={3} size="h4">
          Agents that could not log in
        </Title>
        {records.length > 0 && (
          <Badge color="red" variant="light" aria-label={`${records.length} refused`}>
            {records.length}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        The collector turned these away, so their hosts do not report. An entry goes once its agent gets in, or when dismissed.
      </Text>
      <ErrorNote error={refused.error} title="The refused agents could not be loaded" />
      <ErrorNote error={dismiss.error} title="Not dismissed" />
      {refused.isSuccess && records.length === 0 && (
        <Text size="sm" mt="sm" data-testid="refused-agents-none">
          No agent has been refused since the server started.
        </Text>
      )}
      {records.length > 0 && (
        <Stack gap="xs" mt="sm">
          {records.map((agent) => (
            <RefusedRow key={agent.id} agent={agent} now={now} dismissing={dismiss.isPending} onDismiss={() => dismiss.mutate(agent.id)} />
          ))}
        </Stack>
      )}
      {refused.data && refused.data.dropped > 0 && (
        <Text size="xs" c="dimmed" mt="xs">
          {refused.data.dropped.toLocaleString()} older entries were forgotten to keep this list short.
        </Text>
      )}
    </Card>
  )
}

function RefusedRow({ agent, now, dismissing, onDismiss }: { agent: RefusedAgent; now: number; dismissing: boolean; onDismiss(): void }) {
  const who = agent.uname === '' ? 'no user name' : `user ${agent.uname}`
  return (
    <Paper withBorder p="xs" data-refused-address={agent.address} data-refused-reason={agent.reason}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text ff="monospace" fw={600} size="sm">
              {agent.address}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {who}
            </Text>
            <Badge color="red" variant="light">
              {refusalLabel[agent.reason]}
            </Badge>
          </Group>
          <Text size="sm">{refusalCause[agent.reason]}</Text>
          <Text size="xs" c="dimmed">
            Last attempt {formatWhen(agent.last, now)} ({formatAge(agent.last, now)} ago) ·{' '}
            {agent.count === 1 ? 'once' : `${agent.count.toLocaleString()} times since ${formatWhen(agent.first, now)}`}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="default"
          style={{ flexShrink: 0 }}
          loading={dismissing}
          onClick={onDismiss}
          aria-label={`Dismiss ${agent.address}, ${who}`}>
          Dismiss
        </Button>
      </Group>
    </Paper>
  )
}
