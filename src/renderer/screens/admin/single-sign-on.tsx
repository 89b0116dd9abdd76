// Administration › Single sign-on (issue 30 §2): whether OpenID Connect is on and how the command line set
// it up (issuer, groups claim, e-mail linking, password login), or how to turn it on; and the mapping table
// from the provider's groups to roles, which applies at each single sign-on login and can be filled in
// before single sign-on is on. A table on a desk, a card per group on a phone (StackedTable).
import { SSO_GROUP_MAX } from '../../../shared/api/single-sign-on'
import { Badge, Box, Button, Code, Group, List, Modal, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type ReactNode } from 'react'
import { adminRolesQuery, type Role } from '../../api/admin'
import { setSsoGroupRoles, ssoSettingsQuery, type SsoSettings } from '../../api/single-sign-on'
import { ConfirmButton } from '../../components/confirm-button'
import { ErrorNote } from '../../components/error-note'
import { ScreenTitle } from '../../components/screen-title'
import { StackedTable } from '../../components/stacked-table'
import { useResetAfterOutage } from '../../live/use-reset-after-outage'
import { AnchorLink } from '../reports/anchor-link'
import {
  emptyMappingFields,
  MAPPING_NOTE,
  mappingProblems,
  mappingRows,
  newMapping,
  passwordLoginText,
  redirectUri,
  roleChoices,
  rolesProblem,
  type MappedRole,
  type MappingFields,
  type MappingRow
} from './single-sign-on-model'

const BREAK = { overflowWrap: 'anywhere' } as const
const FACT = { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 'var(--mantine-spacing-xs)', rowGap: 2 } as const

/** Puts an answer of admin/sso/groups/update in the cache: it is the whole settings. */
function useSaved() {
  const queryClient = useQueryClient()
  return (settings: SsoSettings) => queryClient.setQueryData(ssoSettingsQuery.queryKey, settings)
}

export function AdminSingleSignOnScreen() {
  const settings = useQuery(ssoSettingsQuery)
  const roles = useQuery(adminRolesQuery)
  return (
    <Stack gap="md">
      <ScreenTitle title="Single sign-on" loading={settings.isPending} loadingLabel="Loading single sign-on" />
      <Text size="sm" c="dimmed" maw={820}>
        Users can log in through an OpenID Connect identity provider (Keycloak, Authentik, Microsoft Entra ID, Okta …). The provider&apos;s
        groups give them roles, as the table below maps them.
      </Text>
      <ErrorNote error={settings.error} title="The single sign-on settings could not be loaded" />
      {settings.data && (
        <>
          <Summary settings={settings.data} />
          <Mappings settings={settings.data} roles={roles.data} rolesError={roles.error} />
        </>
      )}
    </Stack>
  )
}

function Summary({ settings }: { settings: SsoSettings }) {
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="sso-summary"
      data-testid="sso-summary"
      data-sso={settings.enabled ? 'on' : 'off'}>
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={3} size="h4" id="sso-summary">
            Single sign-on is {settings.enabled ? 'on' : 'off'}
          </Title>
          <Badge color={settings.enabled ? 'green' : 'gray'} variant="light">
            {settings.enabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        {settings.enabled ? <HowItIsSetUp settings={settings} /> : <HowToTurnItOn />}
      </Stack>
    </Paper>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Side by side on a desk; on a phone the value goes under its label.
    <Box style={FACT}>
      <Text size="sm" fw={600} w={150}>
        {label}
      </Text>
      <Text size="sm" component="div" miw={0} style={{ ...BREAK, flex: '1 1 16rem' }}>
        {children}
      </Text>
    </Box>
  )
}

function HowItIsSetUp({ settings }: { settings: SsoSettings }) {
  return (
    <Stack gap={6}>
      <Fact label="Identity provider">
        <Code style={BREAK}>{settings.issuer}</Code>
      </Fact>
      <Fact label="Groups claim">
        <Code style={BREAK}>{settings.groupsclaim}</Code>
      </Fact>
      <Fact label="Link by e-mail">
        {settings.linkbyemail
          ? 'Yes: at its first login, a provider user with a verified e-mail address is linked to the one local user with that address'
          : 'No: at its first login, a provider user gets a user of its own'}
      </Fact>
      <Fact label="Password login">
        <span data-testid="sso-password-login">{passwordLoginText(settings)}</span>
      </Fact>
      <Text size="xs" c="dimmed">
        Set on the server&apos;s command line (<NoBreak>--oidc-issuer</NoBreak>, <NoBreak>--oidc-groups-claim</NoBreak>,{' '}
        <NoBreak>--oidc-link-email</NoBreak>, <NoBreak>--password-login</NoBreak>); the client secret is never shown.
      </Text>
    </Stack>
  )
}

const NoBreak = ({ children }: { children: ReactNode }) => <span style={{ whiteSpace: 'nowrap' }}>{children}</span>

/** A flag or a variable: on one line (a phone breaks the text around it). */
function Flag({ children }: { children: ReactNode }) {
  return <Code style={{ whiteSpace: 'nowrap' }}>{children}</Code>
}

function HowToTurnItOn() {
  const callback = redirectUri(window.location.origin, window.location.pathname)
  return (
    <Stack gap="xs" data-testid="sso-off">
      <Text size="sm">Users log in with their passwords. To turn single sign-on on, start the server with:</Text>
      <List size="sm" spacing={4} style={BREAK}>
        <List.Item>
          <Flag>--oidc-issuer</Flag> the provider&apos;s issuer URL (https://)
        </List.Item>
        <List.Item>
          <Flag>--oidc-client-id</Flag> and <Flag>--oidc-client-secret</Flag> the client the provider registered for this server (better:
          the secret in <Flag>OVERSEER_OIDC_CLIENT_SECRET</Flag>, since a flag shows in the process list)
        </List.Item>
        <List.Item>
          optionally <Flag>--oidc-groups-claim</Flag> the claim that holds the user&apos;s groups (<Flag>groups</Flag> unless given),{' '}
          <Flag>--oidc-link-email on</Flag> to link a provider user with a verified e-mail address to the local user with that address, and{' '}
          <Flag>--password-login break-glass</Flag> with <Flag>--break-glass-user</Flag> an administrator who alone keeps logging in with a
          password in a browser
        </List.Item>
      </List>
      <Text size="sm" style={BREAK}>
        The provider must register the redirect URI <Code data-testid="sso-redirect-uri">{callback}</Code> (the console&apos;s URL followed
        by /auth/oidc/callback; behind a proxy, start the server with <Flag>--console-url</Flag> and its public URL).
      </Text>
      <Text size="sm">The mapping table below can be filled in beforehand: it applies from the first single sign-on login.</Text>
    </Stack>
  )
}

function Mappings({ settings, roles, rolesError }: { settings: SsoSettings; roles: Role[] | undefined; rolesError: unknown }) {
  const rows = mappingRows(settings.groups, roles)
  return (
    <Stack gap="sm" component="section" aria-labelledby="sso-mappings">
      <Title order={3} size="h4" id="sso-mappings">
        Groups → roles
      </Title>
      <ErrorNote error={rolesError} title="The roles could not be loaded" />
      {rows.length === 0 ? <NoMappings /> : <MappingTable rows={rows} roles={roles} />}
      {roles && <AddMapping roles={roles} mapped={rows.map((r) => r.group)} />}
      <Text size="sm" c="dimmed" maw={820} data-testid="sso-mapping-note">
        {MAPPING_NOTE} The roles themselves are defined under{' '}
        <AnchorLink to="/admin/roles" size="sm" underline="always">
          Roles
        </AnchorLink>
        .
      </Text>
    </Stack>
  )
}

function NoMappings() {
  return (
    <Paper withBorder p="md" data-testid="sso-mappings-none">
      <Text fw={600}>No group is mapped</Text>
      <Text size="sm" mt={4}>
        Single sign-on users keep the roles administrators give them. Map a group to give its members roles at their logins.
      </Text>
    </Paper>
  )
}

function MappingTable({ rows, roles }: { rows: MappingRow[]; roles: Role[] | undefined }) {
  const [editing, setEditing] = useState<MappingRow>()
  return (
    <>
      <StackedTable minWidth={560} withTableBorder aria-label="Groups and their roles">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Group</Table.Th>
            <Table.Th>Roles</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <MappingTableRow key={row.group} row={row} canEdit={roles !== undefined} onEdit={() => setEditing(row)} />
          ))}
        </Table.Tbody>
      </StackedTable>
      {editing && roles && <EditMapping row={editing} roles={roles} onClose={() => setEditing(undefined)} />}
    </>
  )
}

function MappingTableRow({ row, canEdit, onEdit }: { row: MappingRow; canEdit: boolean; onEdit(): void }) {
  const saved = useSaved()
  return (
    <Table.Tr data-sso-group={row.group}>
      <Table.Td data-wide>
        <Text size="sm" fw={600} ff="monospace" style={BREAK}>
          {row.group}
        </Text>
      </Table.Td>
      <Table.Td data-label="Roles" data-wide>
        <Group gap={4}>
          {row.roles.map((role) => (
            <RoleBadge key={role.id} role={role} />
          ))}
        </Group>
      </Table.Td>
      <Table.Td data-actions>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onEdit} disabled={!canEdit} aria-label={`Edit the roles of ${row.group}`}>
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            label="Remove"
            aria-label={`Remove the mapping of ${row.group}`}
            title={`Remove the mapping of ${row.group}?`}
            message={`The group ${row.group} gives no role any more: its members lose these roles at their next single sign-on login, unless another of their groups gives them.`}
            onConfirm={async () => saved(await setSsoGroupRoles(row.group, []))}
          />
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

function RoleBadge({ role }: { role: MappedRole }) {
  return (
    <Badge
      variant="light"
      tt="none"
      color={!role.known || !role.active ? 'gray' : role.admin ? 'red' : 'teal'}
      title={!role.known ? 'A role not listed (deleted?)' : role.active ? undefined : 'Inactive: it grants nothing'}
      style={{ maxWidth: '100%' }}
      data-role-id={role.id}>
      {role.active ? role.name : `${role.name} (inactive)`}
    </Badge>
  )
}

function AddMapping({ roles, mapped }: { roles: Role[]; mapped: string[] }) {
  const saved = useSaved()
  // The groups mapped now, as the table shows them when the form is sent.
  const mappedNow = useRef(mapped)
  mappedNow.current = mapped
  const form = useForm<MappingFields>({
    mode: 'controlled',
    initialValues: emptyMappingFields(),
    validate: (fields) => mappingProblems(fields, mappedNow.current)
  })
  const add = useMutation({
    mutationFn: (fields: MappingFields) => {
      const { group, roleIds } = newMapping(fields)
      return setSsoGroupRoles(group, roleIds)
    },
    onSuccess: (settings) => {
      form.reset()
      saved(settings)
    }
  })
  useResetAfterOutage(add)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sso-add-mapping">
      <form
        onSubmit={form.onSubmit(
          (fields) => add.mutate(fields),
          () => add.reset()
        )}
        noValidate>
        <Stack gap="sm">
          <Title order={4} size="h5" id="sso-add-mapping">
            Add mapping
          </Title>
          <Group align="flex-start" wrap="wrap" gap="sm">
            <TextInput
              label="Group"
              description="As the groups claim names it (case matters)"
              placeholder="ops"
              required
              maxLength={SSO_GROUP_MAX}
              autoComplete="off"
              w={260}
              maw="100%"
              {...form.getInputProps('group')}
            />
            <MultiSelect
              label="Roles"
              description="Its members get all of them"
              required
              data={roleChoices(roles)}
              searchable
              nothingFoundMessage="No such role"
              placeholder={form.getValues().roleids.length ? undefined : 'Pick roles'}
              w={340}
              maw="100%"
              {...form.getInputProps('roleids')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={add.isPending}>
              Add mapping
            </Button>
          </Group>
          <ErrorNote error={add.error} title="Not added" />
        </Stack>
      </form>
    </Paper>
  )
}

function EditMapping({ row, roles, onClose }: { row: MappingRow; roles: Role[]; onClose(): void }) {
  const saved = useSaved()
  // A role deleted meanwhile is not offered again.
  const [roleIds, setRoleIds] = useState(row.roles.filter((r) => r.known).map((r) => String(r.id)))
  const [problem, setProblem] = useState<string>()
  const save = useMutation({
    mutationFn: (ids: string[]) => setSsoGroupRoles(row.group, newMapping({ group: row.group, roleids: ids }).roleIds),
    onSuccess: (settings) => {
      saved(settings)
      onClose()
    }
  })
  useResetAfterOutage(save)
  return (
    <Modal opened onClose={onClose} title={`Roles of the group ${row.group}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const wrong = rolesProblem(roleIds)
          setProblem(wrong)
          if (wrong) save.reset()
          else save.mutate(roleIds)
        }}
        noValidate>
        <Stack>
          <MultiSelect
            label="Roles"
            description="To give none, remove the mapping instead"
            data={roleChoices(roles)}
            value={roleIds}
            onChange={(v) => {
              setRoleIds(v)
              setProblem(undefined)
            }}
            searchable
            nothingFoundMessage="No such role"
            error={problem}
            data-autofocus
          />
          <ErrorNote error={save.error} title="Not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
