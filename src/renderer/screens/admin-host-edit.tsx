// One host's administration (admin/hosts/get|update|test|delete): its name and description, status,
// how the server calls its agent back (address, port, TLS, credentials), the heartbeat tolerance,
// a connection test with what is typed (the stored password unless a new one is), and deletion.
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title
} from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { callBackTarget } from '../../shared/api/hosts'
import { adminHostQuery, deleteHost, testConnection, updateHost, type AdminHost, type HostUpdate } from '../api/admin'
import { ErrorNote } from '../components/error-note'
import { HostName } from '../components/host-name'
import { ConfirmButton } from '../components/confirm-button'
import { CertificateChanged, PinnedCertificate } from '../components/agent-certificate'
import { hostFormRules } from '../../shared/api/hosts-admin'
import { adminHostEditRoute } from '../app/routes'

export function AdminHostEditScreen() {
  const { hostId } = adminHostEditRoute.useParams()
  const id = Number(hostId)
  const host = useQuery({ ...adminHostQuery(id), enabled: Number.isInteger(id) })
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/hosts" size="sm">
        ← Host management
      </Anchor>
      <ErrorNote
        error={Number.isInteger(id) ? host.error : new Error(`'${hostId}' is not a host id`)}
        title="The host could not be loaded"
      />
      {host.data && <HostEditor key={host.data.id} host={host.data} />}
    </Stack>
  )
}

function draftOf(host: AdminHost): HostUpdate {
  return {
    id: host.id,
    hostname: host.hostname,
    keepname: host.keepname,
    description: host.description,
    status: host.status,
    ipaddrout: host.ipaddrout,
    portout: host.portout,
    sslout: host.sslout,
    agentuser: host.agentuser,
    agentpassword: '',
    skew: host.skew
  }
}

const httpdOf = (address: string, port: number, ssl: number) =>
  address === '' || port <= 0 ? 'no TCP address' : `${address}:${port}${ssl ? ' (TLS)' : ''}`

/**
 * Once credentials are pinned, the agent's messages no longer move where the server calls it: what they
 * say now (another httpd, another source address) waits here for an administrator.
 */
function ReportedChanges({ host, accepting, onAccept }: { host: AdminHost; accepting: boolean; onAccept: () => void }) {
  if (host.credentialspinned !== 1) return null
  const reported = httpdOf(host.reportedipaddr, host.reportedport, host.reportedssl)
  const calledAt = httpdOf(host.ipaddrin, host.portin, host.sslin)
  const lines = [
    reported !== calledAt && `The agent now reports its httpd at ${reported}; the server still calls it at ${calledAt}.`,
    host.lastsourceipaddr !== '' &&
      `A message came from ${host.lastsourceipaddr}; this host's messages are known to come from ${host.sourceipaddr}.`
  ].filter((line): line is string => typeof line === 'string')
  if (lines.length === 0) return null
  return (
    <Alert color="orange" title="The agent reports something else" data-testid="reported-changes">
      <Stack gap="xs">
        {lines.map((line) => (
          <Text size="sm" key={line}>
            {line}
          </Text>
        ))}
        <Text size="sm">
          Its credentials are pinned, so nothing changes until you accept. Anyone with the collector password can post for a known agent:
          accept only what you expect.
        </Text>
        <Group>
          <Button size="xs" color="orange" onClick={onAccept} loading={accepting}>
            Accept
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}

function HostEditor({ host }: { host: AdminHost }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<HostUpdate>({
    mode: 'controlled',
    initialValues: draftOf(host),
    validate: schemaResolver(hostFormRules, { sync: true })
  })
  const draft = form.getValues()
  const set = <K extends keyof HostUpdate>(key: K, value: HostUpdate[K]) => form.setFieldValue(key, value as never)
  const save = useMutation({
    mutationFn: updateHost,
    onSuccess: (saved) => {
      queryClient.setQueryData(adminHostQuery(host.id).queryKey, saved)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'hosts'], exact: true })
      form.setValues(draftOf(saved))
    }
  })
  const test = useMutation({ mutationFn: testConnection })
  const runTest = () => {
    // Where the server will call the agent once this draft is saved.
    const target = callBackTarget(draft, host)
    test.mutate({
      id: host.id,
      ipaddr: target.ipaddr,
      port: target.port,
      ssl: target.ssl ? 1 : 0,
      agentuser: draft.agentuser,
      agentpassword: draft.agentpassword
    })
  }

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2}>
            <HostName name={host.hostname} />
          </Title>
          <ConfirmButton
            label="Delete host"
            title={`Delete ${host.hostname}?`}
            message="The host is deleted with its services, events and statistics. If its agent reports again, it comes back as a new host."
            onConfirm={() => deleteHost(host.id)}
            onDone={() => {
              void queryClient.invalidateQueries({ queryKey: ['admin'] })
              void navigate({ to: '/admin/hosts' })
            }}
          />
        </Group>
        <ReportedChanges host={host} accepting={save.isPending} onAccept={() => save.mutate({ ...draftOf(host), acceptreported: 1 })} />
        <CertificateChanged
          host={host}
          accepting={save.isPending}
          onAccept={() => save.mutate({ ...draftOf(host), acceptcertificate: 1 })}
        />
        <Text size="sm" c="dimmed">
          Agent id{' '}
          <Text span ff="monospace">
            {host.agentid}
          </Text>{' '}
          · reports every {host.poll} s · last report {host.lastmodified ? new Date(host.lastmodified * 1000).toLocaleString() : 'never'}
        </Text>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={3} size="h4">
              Identity
            </Title>
            <Grid>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <TextInput
                  label="Name"
                  required
                  value={draft.hostname}
                  onChange={(e) => set('hostname', e.currentTarget.value)}
                  error={form.errors.hostname}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Switch
                  mt={30}
                  label="Keep this name (do not follow the agent's host name)"
                  checked={draft.keepname === 1}
                  onChange={(e) => set('keepname', e.currentTarget.checked ? 1 : 0)}
                  error={form.errors.keepname}
                />
              </Grid.Col>
            </Grid>
            <Textarea
              label="Description"
              autosize
              minRows={2}
              value={draft.description}
              onChange={(e) => set('description', e.currentTarget.value)}
              error={form.errors.description}
            />
            <div>
              <Text size="sm" fw={500} mb={4} id="host-status-label">
                Status
              </Text>
              <SegmentedControl
                aria-labelledby="host-status-label"
                value={String(draft.status)}
                onChange={(v) => set('status', Number(v))}
                data={[
                  { value: '0', label: 'Active' },
                  { value: '1', label: 'Inactive' },
                  { value: '2', label: 'Ignored' }
                ]}
              />
              <Text size="xs" c="dimmed" mt={4}>
                Ignored hosts keep their status but store no events.
              </Text>
              {form.errors.status && (
                <Text size="xs" c="red">
                  {form.errors.status}
                </Text>
              )}
            </div>
            <NumberInput
              label="Heartbeat tolerance (poll cycles)"
              description={`A host is declared silent after this many missed reports (default ${host.defaultskew})`}
              min={1}
              max={1000}
              allowDecimal={false}
              value={draft.skew}
              onChange={(v) => set('skew', Number(v))}
              error={form.errors.skew}
              maw={360}
            />
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={3} size="h4">
              Calling the agent back
            </Title>
            <Text size="sm" c="dimmed">
              The agent reports its own web interface at {host.ipaddrin || '—'}:{host.portin} ({host.sslin ? 'https' : 'http'}). With the
              address and the port left empty and the protocol as reported, the server calls it there: what is reported by the agent.
            </Text>
            <PinnedCertificate host={host} tls={callBackTarget(draft, host).ssl} />
            <Grid>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <TextInput
                  label="Address"
                  placeholder={host.ipaddrin || 'as reported'}
                  value={draft.ipaddrout}
                  onChange={(e) => set('ipaddrout', e.currentTarget.value)}
                  error={form.errors.ipaddrout}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 3 }}>
                {/* Empty is -1 on the wire: reported by the agent, whose port is the placeholder, as the address's. */}
                <NumberInput
                  label="Port"
                  placeholder={String(host.portin)}
                  min={1}
                  max={65535}
                  allowDecimal={false}
                  value={draft.portout === -1 ? '' : draft.portout}
                  onChange={(v) => set('portout', v === '' ? -1 : Number(v))}
                  error={form.errors.portout}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, md: 4 }}>
                <Select
                  label="Protocol"
                  allowDeselect={false}
                  value={String(draft.sslout)}
                  onChange={(v) => v !== null && set('sslout', Number(v))}
                  data={[
                    { value: '-1', label: `As reported (${host.sslin ? 'https' : 'http'})` },
                    { value: '0', label: 'http' },
                    { value: '1', label: 'https' }
                  ]}
                  error={form.errors.sslout}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <TextInput
                  label="Agent user"
                  value={draft.agentuser}
                  onChange={(e) => set('agentuser', e.currentTarget.value)}
                  error={form.errors.agentuser}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <PasswordInput
                  label="Agent password"
                  placeholder="unchanged"
                  description="Leave empty to keep the stored password: saving keeps it and the connection test uses it"
                  value={draft.agentpassword}
                  onChange={(e) => set('agentpassword', e.currentTarget.value)}
                  error={form.errors.agentpassword}
                />
              </Grid.Col>
            </Grid>
            <Group>
              <Button variant="default" onClick={runTest} loading={test.isPending}>
                Test connection
              </Button>
              {test.data && (
                <Alert
                  color={test.data.status === 'green' ? 'green' : 'red'}
                  py={6}
                  data-testid="connection-test"
                  role="status"
                  style={{ overflowWrap: 'anywhere' }}>
                  {test.data.description}
                </Alert>
              )}
            </Group>
            <ErrorNote error={test.error} title="The test could not run" />
          </Stack>
        </Paper>

        {/* What only the server knows (the host deleted meanwhile) shows above the buttons. */}
        <ErrorNote error={save.error} title="Not saved" />
        {save.isSuccess && !save.isPending && (
          <Text c="teal" size="sm" role="status">
            Saved.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          <Button
            variant="default"
            onClick={() => {
              form.setValues(draftOf(host))
              form.clearErrors()
              save.reset()
            }}>
            Reset
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
