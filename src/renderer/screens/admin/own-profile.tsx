// The logged-in user's own name, e-mail, time zone and password (profile/update; the old password is
// required), checked in the browser by the server's own rules (shared/api/users.ts, shared/time-zone.ts)
// before anything is sent. The time zone is the one of the notifications e-mailed to them.
import { Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ownPasswordFormRules, profileFormRules } from '../../../shared/api/users'
import { timeZoneRule } from '../../../shared/time-zone'
import { profileQuery, type Profile } from '../../api/profile'
import { updateProfile, type ProfileChange } from '../../api/settings'
import { ErrorNote } from '../../components/error-note'
import { TimeZoneSelect } from '../../components/time-zone-select'

const profileRules = profileFormRules.extend({ timezone: timeZoneRule })

export function OwnProfile({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient()
  const form = useForm({
    mode: 'controlled',
    initialValues: { fullname: profile.fullname, email: profile.email, timezone: profile.timezone },
    validate: schemaResolver(profileRules, { sync: true })
  })
  const zone = form.getInputProps('timezone')
  const save = useMutation({
    mutationFn: (change: ProfileChange) => updateProfile(change),
    onSuccess: (saved) => queryClient.setQueryData(profileQuery.queryKey, saved)
  })
  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit((change) => save.mutate(change))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            Your profile
          </Title>
          <Text size="sm" c="dimmed">
            Logged in as <b>{profile.uname}</b>
            {profile.admin ? ', an administrator' : ''}.
          </Text>
          <Group grow align="flex-start">
            <TextInput label="Full name" {...form.getInputProps('fullname')} />
            <TextInput label="E-mail" type="email" {...form.getInputProps('email')} />
          </Group>
          <TimeZoneSelect
            description="The times in the alerts e-mailed to you"
            value={form.getValues().timezone}
            onChange={(z) => form.setFieldValue('timezone', z)}
            serverZone={profile.servertimezone}
            error={zone.error as string | undefined}
          />
          <ErrorNote error={save.error} title="Not saved" />
          {save.isSuccess && (
            <Text c="teal" size="sm" role="status">
              Profile saved.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  )
}

export function OwnPassword() {
  const form = useForm({
    mode: 'controlled',
    initialValues: { oldpassword: '', password: '', repeat: '' },
    validate: schemaResolver(ownPasswordFormRules, { sync: true })
  })
  const change = useMutation({
    mutationFn: ({ oldpassword, password }: { oldpassword: string; password: string }) => updateProfile({ oldpassword, password }),
    onSuccess: () => form.reset()
  })
  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit((values) => change.mutate(values))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            Change your password
          </Title>
          <Text size="sm" c="dimmed">
            Your other logins (other browsers, API clients) are logged out when it changes.
          </Text>
          <PasswordInput label="Current password" {...form.getInputProps('oldpassword')} autoComplete="current-password" maw={360} />
          <PasswordInput label="New password" {...form.getInputProps('password')} autoComplete="new-password" maw={360} />
          <PasswordInput label="Repeat the new password" {...form.getInputProps('repeat')} autoComplete="new-password" maw={360} />
          {/* What only the server knows (a wrong current password) shows above the button. */}
          <ErrorNote error={change.error} title="Password not changed" />
          {change.isSuccess && (
            <Text c="teal" size="sm" role="status">
              Password changed.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  )
}
