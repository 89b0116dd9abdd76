// Administration › Pulled agents (issue 30 §1): Monit agents that cannot reach this server but whose httpd
// it can reach, read every poll interval as if they had reported. Add one (its URL and httpd credentials),
// see what its last poll found (the list is read again every few seconds), and stop pulling it. A table
// on a desk, a card per agent on a phone (StackedTable).
import { Badge, Button, Code, Group, NumberInput, Paper, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MONIT_HTTPD_PORT, PULL_POLL_LIMITS, PULLED_CREDENTIAL_MAX, PULLED_URL_MAX } from '../../../shared/api/pulled-agents'
import { createPulledAgent, deletePulledAgent, pulledAgentsQuery, type PulledAgent } from '../../api/pulled-agents'
import { ConfirmButton } from '../../components/confirm-button'
import { ErrorNote } from '../../components/error-note'
import { HostName } from '../../components/host-name'
import { formatAge } from '../../components/relative-time'
import { StackedTable } from '../../components/stacked-table'
import { useNow } from '../../components/use-now'
import { useResetAfterOutage } from '../../live/use-reset-after-outage'
import { AnchorLink } from '../reports/anchor-link'
import { formatDateTime } from '../reports/time'
import { emptyPulledAgentFields, newPulledAgent, pulledAgentProblems, URL_EXAMPLE, type PulledAgentFields } from './pulled-agents-form'
import { isHttps, pollState, shortFingerprint } from './pulled-agents-format'

const NOWRAP = { whiteSpace: 'nowrap' } as const

export function AdminPulledAgentsScreen() {
  const agents = useQuery(pulledAgentsQuery)
  return (
    <Stack gap="md">
      <Title order={2}>Pulled agents</Title>
      <Text size="sm" c="dimmed" maw={820}>
        Monit agents that cannot reach this server, but whose httpd this server can reach: it reads their status every poll interval, as if
        they had reported it. For every other agent, <Code>set mmonit</Code> in its monitrc is better: it reports at once, with its events.
      </Text>
      <AddAgentForm />
      <ErrorNote error={agents.error} title="The pulled agents could not be loaded" />
      {agents.data && (agents.data.length === 0 ? <NoAgents /> : <AgentTable agents={agents.data} />)}
    </Stack>
  )
}

function NoAgents() {
  return (
    <Paper withBorder p="md" data-testid="pulled-agents-none">
      <Text fw={600}>No agent is pulled</Text>
      <Text size="sm" mt={4}>
        Add one for an agent that cannot reach this server (a firewall, a network address translation in the way) but whose httpd it can
        reach. For the others, <Code>set mmonit</Code> is better: they push their reports and events themselves.
      </Text>
    </Paper>
  )
}

function AddAgentForm() {
  const queryClient = useQueryClient()
  const form = useForm<PulledAgentFields>({
    mode: 'controlled',
    initialValues: emptyPulledAgentFields(),
    validate: pulledAgentProblems
  })
  const create = useMutation({
    mutationFn: (fields: PulledAgentFields) => createPulledAgent(newPulledAgent(fields)),
    onSuccess: () => {
      form.reset()
      void queryClient.invalidateQueries({ queryKey: pulledAgentsQuery.queryKey })
    }
  })
  useResetAfterOutage(create)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-pulled-agent">
      <form
        // A refusal by the server is over once the form's own checks find something else to say.
        onSubmit={form.onSubmit(
          (fields) => create.mutate(fields),
          () => create.reset()
        )}
        noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id="add-pulled-agent">
            Add agent
          </Title>
          <Group align="flex-start" wrap="wrap" gap="sm">
            <TextInput
              label="URL of its httpd"
              description={`Port ${MONIT_HTTPD_PORT} unless given`}
              placeholder={URL_EXAMPLE}
              required
              maxLength={PULLED_URL_MAX}
              w={300}
              maw="100%"
              {...form.getInputProps('url')}
            />
            <TextInput
              label="User"
              description="Of its httpd (set httpd … allow)"
              placeholder="admin"
              maxLength={PULLED_CREDENTIAL_MAX}
              autoComplete="off"
              w={180}
              maw="100%"
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label="Password"
              description="Sent only to this URL, never shown"
              maxLength={PULLED_CREDENTIAL_MAX}
              autoComplete="new-password"
              w={200}
              maw="100%"
              {...form.getInputProps('password')}
            />
            <NumberInput
              label="Poll every (seconds)"
              description={`${PULL_POLL_LIMITS.min} to ${PULL_POLL_LIMITS.max}`}
              min={PULL_POLL_LIMITS.min}
              max={PULL_POLL_LIMITS.max}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              w={160}
              {...form.getInputProps('poll')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              Add agent
            </Button>
          </Group>
          {/* What only the server knows (an agent added already, an argument it refuses) shows under the form. */}
          <ErrorNote error={create.error} title="Not added" />
        </Stack>
      </form>
    </Paper>
  )
}

function AgentTable({ agents }: { agents: PulledAgent[] }) {
  const now = useNow(1_000)
  return (
    <StackedTable minWidth={960} withTableBorder aria-label="Pulled agents">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>URL</Table.Th>
          <Table.Th>Host</Table.Th>
          <Table.Th>Poll</Table.Th>
          <Table.Th style={NOWRAP}>Last answered</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Certificate</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {agents.map((agent) => (
          <AgentRow key={agent.id} agent={agent} now={now} />
        ))}
      </Table.Tbody>
    </StackedTable>
  )
}

function AgentRow({ agent, now }: { agent: PulledAgent; now: number }) {
  const queryClient = useQueryClient()
  const state = pollState(agent)
  return (
    <Table.Tr data-pulled-url={agent.url} data-pulled-state={state.kind}>
      <Table.Td data-wide>
        {/* Its whole width on a desk; broken only where a phone's card is too narrow. */}
        <Text ff="monospace" size="sm" fw={600} style={{ overflowWrap: 'break-word' }}>
          {agent.url}
        </Text>
        {agent.username !== '' && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            as {agent.username}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Host">
        {agent.hostid !== null ? (
          <AnchorLink to="/hosts/$hostId" params={{ hostId: String(agent.hostid) }} search={{}} size="sm">
            <HostName name={agent.hostname ?? `host ${agent.hostid}`} />
          </AnchorLink>
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            not answered yet
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Poll">
        <Text size="sm" style={NOWRAP}>
          every {agent.poll} s
        </Text>
      </Table.Td>
      <Table.Td data-label="Last answered">
        <When at={agent.answeredat} now={now} />
      </Table.Td>
      <Table.Td data-label="State" data-wide={state.kind === 'failing' ? true : undefined}>
        <PollStateCell agent={agent} now={now} />
      </Table.Td>
      <Table.Td data-label="Certificate">
        <Certificate agent={agent} />
      </Table.Td>
      <Table.Td data-actions>
        <ConfirmButton
          size="xs"
          label="Delete"
          aria-label={`Delete ${agent.url}`}
          title="Stop pulling this agent?"
          message={`The server stops reading ${agent.url}. Its host and history stay; the host goes silent after its poll interval.`}
          onConfirm={() => deletePulledAgent(agent.id)}
          onDone={() => void queryClient.invalidateQueries({ queryKey: pulledAgentsQuery.queryKey })}
        />
      </Table.Td>
    </Table.Tr>
  )
}

/** "12 s ago", the date and time in the browser's time zone on hover. */
function When({ at, now, size = 'sm' }: { at: number | null; now: number; size?: string }) {
  if (at === null)
    return (
      <Text span size={size} c="dimmed">
        never
      </Text>
    )
  return (
    <Text size={size} component="time" style={NOWRAP} dateTime={new Date(at * 1000).toISOString()} title={formatDateTime(at)}>
      {formatAge(at, now)} ago
    </Text>
  )
}

function PollStateCell({ agent, now }: { agent: PulledAgent; now: number }) {
  const state = pollState(agent)
  if (state.kind === 'ok')
    return (
      <Badge color="green" variant="light">
        OK
      </Badge>
    )
  if (state.kind === 'waiting')
    return (
      <Badge color="gray" variant="light">
        first poll due
      </Badge>
    )
  return (
    <Stack gap={2} data-testid="pulled-error">
      <Group gap={6} wrap="nowrap">
        <Badge color="red" variant="filled">
          Failing
        </Badge>
        {agent.polledat !== null && (
          <Text size="xs" c="dimmed">
            tried <When at={agent.polledat} now={now} size="xs" />
          </Text>
        )}
      </Group>
      <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
        {state.error}
      </Text>
    </Stack>
  )
}

/** An HTTPS agent's certificate, pinned at its first answer: shortened, the whole fingerprint on hover. */
function Certificate({ agent }: { agent: PulledAgent }) {
  if (!isHttps(agent))
    return (
      <Text size="sm" c="dimmed" style={NOWRAP}>
        none (HTTP)
      </Text>
    )
  if (agent.certificate === '')
    return (
      <Text size="sm" c="dimmed">
        pinned at its first answer
      </Text>
    )
  return (
    <Text size="sm" ff="monospace" style={NOWRAP} title={`SHA-256 ${agent.certificate}`} data-certificate={agent.certificate}>
      {shortFingerprint(agent.certificate)}
    </Text>
  )
}
