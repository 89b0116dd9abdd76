// Personal API tokens for scripts and dashboards (issue 26): make one (name, expiry, scope), see it once
// with a copy button, and list or revoke them; administrators also see and revoke everyone's.
import { Alert, Badge, Box, Button, Code, CopyButton, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { apiTokenExpiryChoices, MAX_TOKEN_NAME } from '../../../shared/api/api-tokens'
import {
  apiTokensQuery,
  createApiToken,
  revokeApiToken,
  type ApiToken,
  type ApiTokenScope,
  type CreatedApiToken,
  type TokenOwners
} from '../../api/api-tokens'
import { ConfirmButton } from '../../components/confirm-button'
import { ErrorNote } from '../../components/error-note'
import { formatWhen } from '../../components/relative-time'
import { useNow } from '../../components/use-now'

const NEVER = 'never'
const expiryOptions = [
  { value: NEVER, label: 'Never' },
  ...apiTokenExpiryChoices.map((days) => ({ value: String(days), label: `In ${days} days` }))
]
const scopeOptions: { value: ApiTokenScope; label: string }[] = [
  { value: 'read', label: 'Read-only' },
  { value: 'full', label: 'Your full permissions' }
]

/** The caller's own tokens, with the form that makes one. */
export function OwnApiTokens() {
  const [made, setMade] = useState<CreatedApiToken>()
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          API tokens
        </Title>
        <Text size="sm" c="dimmed">
          For scripts and dashboards: send a token as <Code>Authorization: Bearer …</Code> to the API or to /metrics instead of your
          password. A token can do at most what you can do now; a read-only one changes nothing.
        </Text>
        <NewTokenForm onMade={setMade} />
        {made && <MadeToken token={made} onDone={() => setMade(undefined)} />}
        <TokenTable owners="own" />
      </Stack>
    </Paper>
  )
}

/** Every user's tokens, for administrators. */
export function AllApiTokens() {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          API tokens of all users
        </Title>
        <TokenTable owners="all" />
      </Stack>
    </Paper>
  )
}

function NewTokenForm({ onMade }: { onMade(token: CreatedApiToken): void }) {
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [expiry, setExpiry] = useState(NEVER)
  const [scope, setScope] = useState<ApiTokenScope>('read')
  const create = useMutation({
    mutationFn: () => createApiToken({ name: name.trim(), scope, expires: expiry === NEVER ? undefined : Number(expiry) }),
    onSuccess: (token) => {
      setName('')
      onMade(token)
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] })
    }
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        create.mutate()
      }}
      noValidate>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="e.g. grafana"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={MAX_TOKEN_NAME}
            w={240}
            maw="100%"
          />
          <Select
            label="Expires"
            data={expiryOptions}
            value={expiry}
            onChange={(v) => setExpiry(v ?? NEVER)}
            allowDeselect={false}
            w={160}
          />
          <Select
            label="Scope"
            data={scopeOptions}
            value={scope}
            onChange={(v) => setScope((v as ApiTokenScope | null) ?? 'read')}
            allowDeselect={false}
            w={220}
          />
          <Button type="submit" loading={create.isPending} disabled={name.trim() === ''}>
            Create token
          </Button>
        </Group>
        <ErrorNote error={create.error} title="No token made" />
      </Stack>
    </form>
  )
}

function MadeToken({ token, onDone }: { token: CreatedApiToken; onDone(): void }) {
  return (
    <Alert color="teal" title={`Token "${token.name}" made`} role="status">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          Copy it now: you will not see it again.
        </Text>
        <Code block data-testid="new-api-token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {token.token}
        </Code>
        <Group>
          <CopyButton value={token.token}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}

/** A table on wider screens, a card per token on phones. */
function TokenTable({ owners }: { owners: TokenOwners }) {
  const tokens = useQuery(apiTokensQuery(owners))
  const now = useNow(60_000)
  if (tokens.error) return <ErrorNote error={tokens.error} title="The API tokens could not be loaded" />
  if (!tokens.data) return null
  if (tokens.data.length === 0) return <Text size="sm">{owners === 'own' ? 'You have no API tokens.' : 'No user has an API token.'}</Text>
  const label = owners === 'own' ? 'Your API tokens' : 'API tokens of all users'
  return (
    <>
      <Box visibleFrom="sm">
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {owners === 'all' && <Table.Th>User</Table.Th>}
              <Table.Th>Name</Table.Th>
              <Table.Th>Token</Table.Th>
              <Table.Th>Scope</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.map((token) => (
              <Table.Tr key={token.id}>
                {owners === 'all' && <Table.Td>{token.uname}</Table.Td>}
                <Table.Td>{token.name}</Table.Td>
                <Table.Td ff="monospace">{token.prefix}…</Table.Td>
                <Table.Td>
                  <ScopeBadge scope={token.scope} />
                </Table.Td>
                <Table.Td>{formatWhen(token.created, now)}</Table.Td>
                <Table.Td c={expired(token, now) ? 'red' : undefined}>{whenOrNever(token.expires, now)}</Table.Td>
                <Table.Td>{whenOrNever(token.lastused, now)}</Table.Td>
                <Table.Td>
                  <RevokeButton token={token} owners={owners} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack gap="xs" hiddenFrom="sm" role="list" aria-label={label}>
        {tokens.data.map((token) => (
          <Paper key={token.id} withBorder p="sm" role="listitem">
            <Stack gap={4}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>
                  {token.name}
                  {owners === 'all' && ` (${token.uname})`}
                </Text>
                <ScopeBadge scope={token.scope} />
              </Group>
              <Text size="sm" ff="monospace">
                {token.prefix}…
              </Text>
              <Text size="sm" c={expired(token, now) ? 'red' : 'dimmed'}>
                Made {formatWhen(token.created, now)} · expires {whenOrNever(token.expires, now)} · last used{' '}
                {whenOrNever(token.lastused, now)}
              </Text>
              <Group justify="flex-end">
                <RevokeButton token={token} owners={owners} />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  )
}

const whenOrNever = (t: number | null, now: number) => (t === null ? 'never' : formatWhen(t, now))
const expired = (token: ApiToken, now: number) => token.expires !== null && token.expires <= now

function ScopeBadge({ scope }: { scope: ApiTokenScope }) {
  return (
    <Badge variant="light" color={scope === 'read' ? 'blue' : 'orange'}>
      {scope === 'read' ? 'read-only' : 'full'}
    </Badge>
  )
}

function RevokeButton({ token, owners }: { token: ApiToken; owners: TokenOwners }) {
  const queryClient = useQueryClient()
  return (
    <ConfirmButton
      size="xs"
      label="Revoke"
      aria-label={`Revoke ${token.name}`}
      title="Revoke this API token?"
      message={`Scripts using "${token.name}"${owners === 'all' ? ` (${token.uname})` : ''} are refused from now on.`}
      onConfirm={() => revokeApiToken(token.id, owners)}
      onDone={() => void queryClient.invalidateQueries({ queryKey: ['api-tokens'] })}
    />
  )
}
