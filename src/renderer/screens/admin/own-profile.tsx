// The logged-in user's own name, e-mail and password (profile/update; the old password is required).
import { Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { profileQuery, type Profile } from '../../api/profile'
import { updateProfile, type ProfileChange } from '../../api/settings'
import { ErrorNote } from '../../components/error-note'
import { formErrors } from './field-errors'

export function OwnProfile({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient()
  const [fullname, setFullname] = useState(profile.fullname)
  const [email, setEmail] = useState(profile.email)
  const save = useMutation({
    mutationFn: (change: ProfileChange) => updateProfile(change),
    onSuccess: (saved) => queryClient.setQueryData(profileQuery.queryKey, saved)
  })
  const errors = formErrors(save.error, ['fullname', 'email'])
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate({ fullname, email }) }
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">Your profile</Title>
          <Text size="sm" c="dimmed">Logged in as <b>{profile.uname}</b>{profile.admin ? ', an administrator' : ''}.</Text>
          <Group grow align="flex-start">
            <TextInput label="Full name" value={fullname} onChange={(e) => setFullname(e.currentTarget.value)} error={errors.of('fullname')} />
            <TextInput label="E-mail" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.of('email')} />
          </Group>
          <ErrorNote error={errors.general} title="Not saved" />
          {save.isSuccess && <Text c="teal" size="sm" role="status">Profile saved.</Text>}
          <Group><Button type="submit" loading={save.isPending}>Save profile</Button></Group>
        </Stack>
      </form>
    </Paper>
  )
}

export function OwnPassword() {
  const [oldpassword, setOld] = useState('')
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const change = useMutation({
    mutationFn: () => updateProfile({ oldpassword, password }),
    onSuccess: () => { setOld(''); setPassword(''); setRepeat('') }
  })
  const errors = formErrors(change.error, ['oldpassword', 'password'])
  const mismatch = repeat !== '' && repeat !== password
  const submit = (e: FormEvent) => { e.preventDefault(); if (!mismatch && password) change.mutate() }
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">Change your password</Title>
          <Text size="sm" c="dimmed">Your other logins (other browsers, API clients) are logged out when it changes.</Text>
          <PasswordInput label="Current password" value={oldpassword} onChange={(e) => setOld(e.currentTarget.value)}
            error={errors.of('oldpassword')} autoComplete="current-password" maw={360} />
          <PasswordInput label="New password" value={password} onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.of('password')} autoComplete="new-password" maw={360} />
          <PasswordInput label="Repeat the new password" value={repeat} onChange={(e) => setRepeat(e.currentTarget.value)}
            error={mismatch ? 'The two passwords differ' : undefined} autoComplete="new-password" maw={360} />
          <ErrorNote error={errors.general} title="Password not changed" />
          {change.isSuccess && <Text c="teal" size="sm" role="status">Password changed.</Text>}
          <Group><Button type="submit" disabled={!oldpassword || !password || repeat !== password} loading={change.isPending}>Change password</Button></Group>
        </Stack>
      </form>
    </Paper>
  )
}
