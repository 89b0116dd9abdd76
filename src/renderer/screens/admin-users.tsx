// Users (admin/users/* by id, api/2): the list with their roles; create, edit (name, contact, roles,
// optional new password) and delete, each confirmed where it destroys something.
import { Badge, Button, Checkbox, Group, Modal, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  adminRolesQuery,
  adminUserQuery,
  adminUsersQuery,
  createUser,
  deleteUser,
  updateUser,
  type Role,
  type UserChange,
  type UserEntry
} from '../api/admin'
import { useProfile } from '../api/profile'
import { ErrorNote } from '../components/error-note'
import { TimeZoneSelect } from '../components/time-zone-select'
import { ConfirmButton } from '../components/confirm-button'
import { userFormRules } from '../../shared/api/users'
import { rolesByUser } from './admin/role-names'
import { StackedTable } from '../components/stacked-table'

type Editing = { mode: 'create' } | { mode: 'edit'; user: UserEntry }

export function AdminUsersScreen() {
  const users = useQuery(adminUsersQuery)
  const roles = useQuery(adminRolesQuery)
  const me = useProfile()
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing>()
  const byUser = rolesByUser(roles.data ?? [])
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin'] })

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Users</Title>
        <Button onClick={() => setEditing({ mode: 'create' })} disabled={!roles.data}>
          New user
        </Button>
      </Group>
      <ErrorNote error={users.error ?? roles.error} title="The users could not be loaded" />
      {users.data && (
        <StackedTable minWidth={560} highlightOnHover withTableBorder aria-label="Users">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User name</Table.Th>
              <Table.Th>Full name</Table.Th>
              <Table.Th>E-mail</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data.map((user) => (
              <Table.Tr key={user.id} data-user={user.uname}>
                <Table.Td fw={500}>{user.uname}</Table.Td>
                <Table.Td>{user.fullname}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {(byUser.get(user.id) ?? []).map((r) => (
                      <Badge key={r.id} variant="light" color={r.admin ? 'red' : r.active ? 'teal' : 'gray'}>
                        {r.name}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td data-actions>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setEditing({ mode: 'edit', user })}
                      aria-label={`Edit ${user.uname}`}>
                      Edit
                    </Button>
                    <ConfirmButton
                      size="xs"
                      label="Delete"
                      aria-label={`Delete ${user.uname}`}
                      title={`Delete the user ${user.uname}?`}
                      disabled={String(me.id) === user.id}
                      message="The user is deleted and logged out everywhere. Agents using these credentials can no longer report."
                      onConfirm={() => deleteUser(user.id)}
                      onDone={refresh}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </StackedTable>
      )}
      {editing && roles.data && (
        <UserEditor
          editing={editing}
          roles={roles.data}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined)
            refresh()
          }}
        />
      )}
    </Stack>
  )
}

function UserEditor({ editing, roles, onClose, onSaved }: { editing: Editing; roles: Role[]; onClose(): void; onSaved(): void }) {
  const detail = useQuery({ ...adminUserQuery(editing.mode === 'edit' ? editing.user.id : ''), enabled: editing.mode === 'edit' })
  const title = editing.mode === 'create' ? 'New user' : `Edit ${editing.user.uname}`
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      {editing.mode === 'create' ? (
        <UserForm
          roles={roles}
          initial={{ uname: '', fullname: '', email: '', password: '', roleid: [], timezone: '' }}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : (
        <>
          <ErrorNote error={detail.error} title="The user could not be loaded" />
          {detail.data && (
            <UserForm
              roles={roles}
              id={editing.user.id}
              onClose={onClose}
              onSaved={onSaved}
              initial={{
                uname: detail.data.uname,
                fullname: detail.data.fullname,
                email: detail.data.email,
                password: '',
                roleid: detail.data.roles,
                timezone: detail.data.timezone
              }}
            />
          )}
        </>
      )}
    </Modal>
  )
}

function UserForm({
  roles,
  id,
  initial,
  onClose,
  onSaved
}: {
  roles: Role[]
  id?: string
  initial: UserChange
  onClose(): void
  onSaved(): void
}) {
  const form = useForm<UserChange & { confirm: string }>({
    mode: 'controlled',
    initialValues: { ...initial, confirm: '' },
    validate: schemaResolver(userFormRules(id === undefined), { sync: true })
  })
  const save = useMutation({
    mutationFn: (user: UserChange) => (id === undefined ? createUser(user) : updateUser(id, user)),
    onSuccess: onSaved
  })
  const creating = id === undefined
  return (
    <form
      onSubmit={form.onSubmit(({ confirm: _, ...user }) => save.mutate({ ...user, fullname: user.fullname.trim() || user.uname.trim() }))}
      noValidate>
      <Stack>
        <TextInput label="User name" required {...form.getInputProps('uname')} data-autofocus />
        <TextInput label="Full name" description="Optional: the user name stands for it when empty" {...form.getInputProps('fullname')} />
        <TextInput label="E-mail" {...form.getInputProps('email')} />
        <TimeZoneSelect
          description="The times in the alerts e-mailed to this user"
          value={form.getValues().timezone ?? ''}
          onChange={(z) => form.setFieldValue('timezone', z)}
        />
        <PasswordInput
          label={creating ? 'Password' : 'New password'}
          required={creating}
          description={creating ? undefined : 'Leave empty to keep the current password'}
          {...form.getInputProps('password')}
          autoComplete="new-password"
        />
        <PasswordInput
          label={creating ? 'Repeat the password' : 'Repeat the new password'}
          required={creating}
          {...form.getInputProps('confirm')}
          autoComplete="new-password"
        />
        <Checkbox.Group
          label="Roles"
          description="At least one; a user may do what any of their active roles grants"
          value={form.getValues().roleid.map(String)}
          onChange={(v) => form.setFieldValue('roleid', v.map(Number))}
          error={form.errors.roleid}>
          <Stack gap={6} mt={6}>
            {roles.map((r) => (
              <Checkbox
                key={r.id}
                value={String(r.id)}
                label={
                  <>
                    {r.name}
                    {!r.active && (
                      <Text span c="dimmed">
                        {' '}
                        (inactive)
                      </Text>
                    )}
                  </>
                }
                description={r.description || undefined}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {/* What only the server knows (a name taken meanwhile) shows above the buttons. */}
        <ErrorNote error={save.error} title="Not saved" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {id === undefined ? 'Create user' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
