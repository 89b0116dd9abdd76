// Roles (admin/roles/*): what each grants (rows of hosts and groups × permission bits), who holds it,
// whether it is active. The built-in Administrator role cannot be deleted, deactivated or lose its
// rights, the built-in Collector role cannot be deleted or renamed: those controls are disabled.
import { Badge, Button, Card, Group, Modal, MultiSelect, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { BUILTIN_ROLE, roleFormRules } from '../../shared/api/roles'
import {
  addRoleMembers,
  adminGroupsQuery,
  adminRolesQuery,
  adminUsersQuery,
  deleteRole,
  removeRoleMembers,
  rowPermission,
  saveRole,
  setRoleActive,
  PERMISSION_BITS,
  type GroupList,
  type Role,
  type RoleDraft,
  type UserEntry
} from '../api/admin'
import { ErrorNote } from '../components/error-note'
import { ConfirmButton } from '../components/confirm-button'
import { RoleRowEditor } from './admin/role-row-editor'

export function AdminRolesScreen() {
  const roles = useQuery(adminRolesQuery)
  const users = useQuery(adminUsersQuery)
  const choices = useQuery(adminGroupsQuery)
  const [editing, setEditing] = useState<RoleDraft>()
  const ready = roles.data && users.data && choices.data
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Roles</Title>
        <Button
          disabled={!ready}
          onClick={() =>
            setEditing({ name: '', description: '', admin: false, active: true, rows: [{ hosts: [], hostgroups: [], permission: 2 }] })
          }>
          New role
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        A user may do what any of their active roles grants. Permissions: collector (report as a Monit agent), view (status, events,
        reports), service actions (start, stop, restart, monitor, unmonitor).
      </Text>
      <ErrorNote error={roles.error ?? users.error ?? choices.error} title="The roles could not be loaded" />
      {ready &&
        roles.data.map((role) => (
          <RoleCard key={role.id} role={role} users={users.data} choices={choices.data} onEdit={() => setEditing(draftOf(role))} />
        ))}
      {editing && choices.data && (
        <Modal
          opened
          onClose={() => setEditing(undefined)}
          title={editing.id === undefined ? 'New role' : `Edit ${editing.name}`}
          size="xl">
          <RoleForm
            initial={editing}
            choices={choices.data}
            builtin={ready ? (roles.data.find((r) => r.id === editing.id)?.buildin ?? false) : false}
            onClose={() => setEditing(undefined)}
          />
        </Modal>
      )}
    </Stack>
  )
}

function draftOf(role: Role): RoleDraft {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    admin: role.admin,
    active: role.active,
    rows: role.rolerows.map((row) => ({ hosts: row.hosts, hostgroups: row.hostgroups, permission: rowPermission(row) }))
  }
}

function RoleCard({ role, users, choices, onEdit }: { role: Role; users: UserEntry[]; choices: GroupList; onEdit(): void }) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] })
  const active = useMutation({ mutationFn: (on: boolean) => setRoleActive(role.id, on), onSettled: refresh })
  const members = useMutation({
    mutationFn: async (next: string[]) => {
      const added = next.filter((u) => !role.members.users.includes(u)).map(Number)
      const removed = role.members.users.filter((u) => !next.includes(u)).map(Number)
      if (added.length) await addRoleMembers(role.id, added)
      if (removed.length) await removeRoleMembers(role.id, removed)
    },
    onSettled: refresh
  })
  const isAdministrator = role.id === BUILTIN_ROLE.Administrator
  return (
    <Card withBorder padding="md" data-role={role.name}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="xs">
              <Title order={3} size="h4">
                {role.name}
              </Title>
              {role.admin && (
                <Badge color="red" variant="light">
                  Administrator
                </Badge>
              )}
              {role.buildin && (
                <Badge color="gray" variant="outline">
                  Built-in
                </Badge>
              )}
              {!role.active && <Badge color="gray">Inactive</Badge>}
            </Group>
            {role.description && (
              <Text size="sm" c="dimmed">
                {role.description}
              </Text>
            )}
          </div>
          <Group gap="xs">
            <Switch
              label="Active"
              checked={role.active}
              disabled={isAdministrator || active.isPending}
              onChange={(e) => active.mutate(e.currentTarget.checked)}
              aria-label={`${role.name} active`}
            />
            <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${role.name}`}>
              Edit
            </Button>
            {!role.buildin && (
              <ConfirmButton
                size="xs"
                label="Delete"
                aria-label={`Delete ${role.name}`}
                title={`Delete the role ${role.name}?`}
                message="Its members lose what this role grants them."
                onConfirm={() => deleteRole(role.id)}
                onDone={() => void refresh()}
              />
            )}
          </Group>
        </Group>
        <ErrorNote error={active.error} title="Not changed" />
        <RowSummary role={role} choices={choices} />
        <MultiSelect
          label="Members"
          data={users.map((u) => ({ value: u.id, label: u.fullname ? `${u.uname} (${u.fullname})` : u.uname }))}
          value={role.members.users}
          onChange={(v) => members.mutate(v)}
          searchable
          disabled={members.isPending}
          placeholder={role.members.users.length ? undefined : 'No members'}
          aria-label={`Members of ${role.name}`}
          error={members.error ? (members.error as Error).message : undefined}
        />
      </Stack>
    </Card>
  )
}

function RowSummary({ role, choices }: { role: Role; choices: GroupList }) {
  if (role.admin) return <Text size="sm">Everything, on every host, and the administration.</Text>
  if (role.rolerows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Grants nothing.
      </Text>
    )
  const hostName = new Map(choices.hosts.map((h) => [h.id, h.name]))
  const groupName = new Map(choices.groups.map((g) => [g.id, g.name]))
  return (
    <Stack gap={2}>
      {role.rolerows.map((row, i) => {
        const bits = PERMISSION_BITS.filter((p) => (rowPermission(row) & p.bit) !== 0).map((p) => p.label.toLowerCase())
        const scope = [
          ...row.hosts.map((id) => hostName.get(id) ?? `host ${id}`),
          ...row.hostgroups.map((id) => `group ${groupName.get(id) ?? id}`)
        ]
        return (
          <Text size="sm" key={i}>
            {bits.length ? bits.join(', ') : 'nothing'} on {scope.length ? scope.join(', ') : 'every host'}
          </Text>
        )
      })}
    </Stack>
  )
}

function RoleForm({ initial, choices, builtin, onClose }: { initial: RoleDraft; choices: GroupList; builtin: boolean; onClose(): void }) {
  const queryClient = useQueryClient()
  const form = useForm<RoleDraft>({ mode: 'controlled', initialValues: initial, validate: schemaResolver(roleFormRules, { sync: true }) })
  const draft = form.getValues()
  const save = useMutation({
    mutationFn: saveRole,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin'] })
      onClose()
    }
  })
  const isAdministrator = draft.id === BUILTIN_ROLE.Administrator
  return (
    <form onSubmit={form.onSubmit((role) => save.mutate(role))} noValidate>
      <Stack>
        <TextInput
          label="Name"
          required
          disabled={builtin}
          description={builtin ? 'Built-in roles keep their name' : undefined}
          {...form.getInputProps('name')}
          data-autofocus
        />
        <Textarea label="Description" autosize {...form.getInputProps('description')} />
        <Group>
          <Switch
            label="Administrator (may do everything)"
            disabled={isAdministrator}
            {...form.getInputProps('admin', { type: 'checkbox' })}
          />
          <Switch label="Active" disabled={isAdministrator} {...form.getInputProps('active', { type: 'checkbox' })} />
        </Group>
        {!draft.admin && <RoleRowEditor rows={draft.rows} choices={choices} onChange={(rows) => form.setFieldValue('rows', rows)} />}
        {/* What only the server knows (a name taken already) shows above the buttons. */}
        <ErrorNote error={save.error} title="Not saved" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {draft.id === undefined ? 'Create role' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
