// Host groups (admin/groups/*): named sets of hosts that roles grant permissions on. Create, rename and
// delete groups; add and remove member hosts, one by one or every host matching a name. Members whose
// agent declares the group (Monit 5.34+ `with hostgroups`) say so and stay in the picker.
import { Button, Card, Group, Modal, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { groupFormRules } from '../../shared/api/groups'
import {
  addGroupHosts,
  adminGroupsQuery,
  createGroup,
  declaredMembersQuery,
  deleteGroup,
  removeGroupHosts,
  renameGroup,
  type GroupList,
  type HostGroup
} from '../api/admin'
import { errorMessage } from '../api/client'
import { ErrorNote } from '../components/error-note'
import { ConfirmButton } from '../components/confirm-button'
import { AddMatchingHosts } from './admin/add-matching-hosts'
import { DECLARED_BY_THE_AGENT, declaredOf, keepDeclared, memberOptions } from './admin/group-members'

export function AdminGroupsScreen() {
  const list = useQuery(adminGroupsQuery)
  const declared = useQuery(declaredMembersQuery)
  return (
    <Stack gap="md">
      <Title order={2}>Host groups</Title>
      <Text size="sm" c="dimmed">
        Group hosts to filter the status views by group and to grant roles permissions on every host of a group.
      </Text>
      <ErrorNote error={list.error} title="The host groups could not be loaded" />
      <NewGroup />
      {list.data && list.data.groups.length === 0 && <Text data-testid="groups-empty">No host groups yet. Create one above.</Text>}
      {list.data?.groups.map((group) => (
        <GroupCard key={group.id} group={group} list={list.data} declared={declaredOf(group.id, declared.data?.groups)} />
      ))}
    </Stack>
  )
}

function NewGroup() {
  const queryClient = useQueryClient()
  const form = useForm({ mode: 'controlled', initialValues: { name: '' }, validate: schemaResolver(groupFormRules, { sync: true }) })
  const create = useMutation({
    mutationFn: createGroup,
    onSuccess: () => {
      form.reset()
      void queryClient.invalidateQueries({ queryKey: ['admin'] })
    }
  })
  return (
    <form onSubmit={form.onSubmit(({ name }) => create.mutate(name))} noValidate>
      <Group align="flex-start">
        {/* A name taken already is the server's to say; it shows under the field like the browser's checks. */}
        <TextInput
          label="New group"
          placeholder="Name"
          {...form.getInputProps('name')}
          error={form.errors.name ?? (create.error ? errorMessage(create.error) : undefined)}
          onChange={(e) => {
            form.setFieldValue('name', e.currentTarget.value)
            create.reset()
          }}
          w={320}
        />
        <Button type="submit" mt={25} loading={create.isPending}>
          Create group
        </Button>
      </Group>
    </form>
  )
}

function GroupCard({ group, list, declared }: { group: HostGroup; list: GroupList; declared: number[] }) {
  const queryClient = useQueryClient()
  const [renaming, setRenaming] = useState(false)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] })
  const members = useMutation({
    mutationFn: async (picked: number[]) => {
      const next = keepDeclared(picked, declared)
      const added = next.filter((id) => !group.hosts.includes(id))
      const removed = group.hosts.filter((id) => !next.includes(id))
      if (added.length) await addGroupHosts(group.id, added)
      if (removed.length) await removeGroupHosts(group.id, removed)
    },
    onSettled: refresh
  })
  return (
    <Card withBorder data-group={group.name}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {group.name}
          </Title>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setRenaming(true)} aria-label={`Rename ${group.name}`}>
              Rename
            </Button>
            <ConfirmButton
              size="xs"
              label="Delete"
              aria-label={`Delete ${group.name}`}
              title={`Delete the group ${group.name}?`}
              message={
                declared.length > 0
                  ? 'The hosts stay; roles that granted permissions through this group no longer do. Its agents declare it: it comes back with their next message unless their control files change.'
                  : 'The hosts stay; roles that granted permissions through this group no longer do.'
              }
              onConfirm={() => deleteGroup(group.id)}
              onDone={() => void refresh()}
            />
          </Group>
        </Group>
        <MultiSelect
          label={`Hosts (${group.hosts.length})`}
          data={memberOptions(list.hosts, declared)}
          value={group.hosts.map(String)}
          onChange={(v) => members.mutate(v.map(Number))}
          searchable
          limit={50}
          clearable
          placeholder={group.hosts.length ? undefined : 'No hosts: pick some'}
          nothingFoundMessage="No such host"
          disabled={members.isPending}
          aria-label={`Hosts of ${group.name}`}
          error={members.error ? (members.error as Error).message : undefined}
          description={
            declared.length > 0
              ? `Members ${DECLARED_BY_THE_AGENT} (set mmonit … with hostgroups) stay while its control file names this group.`
              : undefined
          }
        />
        <AddMatchingHosts group={group} hosts={list.hosts} onAdded={() => void refresh()} />
      </Stack>
      {renaming && <RenameGroup group={group} onClose={() => setRenaming(false)} />}
    </Card>
  )
}

function RenameGroup({ group, onClose }: { group: HostGroup; onClose(): void }) {
  const queryClient = useQueryClient()
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: group.name },
    validate: schemaResolver(groupFormRules, { sync: true })
  })
  const rename = useMutation({
    mutationFn: (name: string) => renameGroup(group.id, name),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin'] })
      onClose()
    }
  })
  return (
    <Modal opened onClose={onClose} title={`Rename ${group.name}`}>
      <form onSubmit={form.onSubmit(({ name }) => rename.mutate(name))} noValidate>
        <Stack>
          <TextInput label="Name" {...form.getInputProps('name')} data-autofocus />
          <ErrorNote error={rename.error} title="Not renamed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
