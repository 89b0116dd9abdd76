// The collector users (members of active roles granting the collector bit): pick one, set a new
// password, and get the monitrc line for the agents. Stored passwords cannot be shown, so the line
// holds PASSWORD until a new one is set here.
import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { z } from 'zod'
import { collectorPasswordRule } from '../../../shared/api/setup'
import { adminRolesQuery, adminUsersQuery, setUserPassword } from '../../api/admin'
import { ErrorNote } from '../../components/error-note'
import { MonitrcLineChooser } from '../../components/monitrc-line'
import { randomPassword } from '../../components/random-password'
import { collectorRoles } from './role-names'

const passwordForm = z.object({ password: collectorPasswordRule })

export function CollectorCredentials({ urls }: { urls: string[] }) {
  const queryClient = useQueryClient()
  const roles = useQuery(adminRolesQuery)
  const users = useQuery(adminUsersQuery)
  const collectorIds = new Set(collectorRoles(roles.data ?? []).flatMap((r) => r.members.users))
  const collectors = (users.data ?? []).filter((u) => collectorIds.has(u.id))
  const [chosen, setChosen] = useState<string | null>(null)
  const userId = chosen ?? collectors[0]?.id ?? null
  const user = collectors.find((u) => u.id === userId)
  const form = useForm({ mode: 'controlled', initialValues: { password: '' }, validate: schemaResolver(passwordForm, { sync: true }) })
  const [saved, setSaved] = useState<{ id: string; password: string }>()
  const change = useMutation({
    mutationFn: (p: { id: string; password: string }) => setUserPassword(p.id, p.password),
    onSuccess: (_, p) => {
      setSaved(p)
      form.reset()
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] })
    }
  })
  const shownPassword = saved && saved.id === userId ? saved.password : 'PASSWORD'

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Collector credentials
        </Title>
        <Text size="sm" c="dimmed">
          Monit agents report with the name and password of a user whose role grants the collector permission.
        </Text>
        <ErrorNote error={roles.error ?? users.error} title="The collector users could not be loaded" />
        {roles.data && users.data && collectors.length === 0 && (
          <Text>No user may report as an agent. Give a user the built-in Collector role under Administration → Users.</Text>
        )}
        {user && (
          <>
            <Select
              label="Collector user"
              data={collectors.map((u) => ({ value: u.id, label: u.uname }))}
              value={userId}
              onChange={(v) => {
                setChosen(v)
                change.reset()
              }}
              allowDeselect={false}
              maw={320}
            />
            <form
              onSubmit={form.onSubmit(({ password }) => {
                if (userId) change.mutate({ id: userId, password })
              })}
              noValidate>
              <Group align="flex-start">
                <TextInput
                  label="New collector password"
                  {...form.getInputProps('password')}
                  styles={{ input: { fontFamily: 'monospace' } }}
                  w={320}
                  maw="100%"
                  autoComplete="off"
                />
                <Button variant="default" mt={25} onClick={() => form.setFieldValue('password', randomPassword())}>
                  Generate
                </Button>
                <Button type="submit" mt={25} loading={change.isPending}>
                  Set password
                </Button>
              </Group>
            </form>
            <ErrorNote error={change.error} title="Password not changed" />
            {saved && saved.id === userId && (
              <Text size="sm" c="teal" role="status">
                New password set. Update every agent's monitrc with the line below, then run monit reload.
              </Text>
            )}
            <MonitrcLineChooser user={user.uname} password={shownPassword} urls={urls} />
          </>
        )}
      </Stack>
    </Paper>
  )
}
