// First-run setup, outside the console frame: reachable only in a browser on the server machine while
// no user exists. Step 1 the administrator, step 2 the collector user the agents report as; both are
// created together (one transaction on the server), then the monitrc line is shown and the
// administrator logs in with the normal form — optionally on to a first alert channel (e-mail or webhook).
import { Alert, Anchor, Button, Container, Group, Loader, Paper, PasswordInput, Stack, Stepper, Text, TextInput, Title } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { createRoute } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../api/client'
import { completeSetup, setupStatus, type SetupRequest, type SetupResult } from '../api/setup'
import { rememberFirstChannel } from '../app/first-channel'
import { rootRoute } from '../app/root-route'
import { ErrorNote } from '../components/error-note'
import { MonitrcLineChooser } from '../components/monitrc-line'
import { randomPassword } from '../components/random-password'
import { formErrors } from './admin/field-errors'

export const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'setup',
  component: SetupScreen
})

const ADMIN_FIELDS = ['adminuname', 'adminfullname', 'adminpassword'] as const
const COLLECTOR_FIELDS = ['collectoruname', 'collectorpassword'] as const
const URL_SAFE = /^[A-Za-z0-9]+$/

function SetupScreen() {
  const status = useQuery({ queryKey: ['setup'], queryFn: setupStatus, retry: false })
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Welcome to Overseer</Title>
        {status.isPending && <Group><Loader size="sm" /><Text>Checking the server…</Text></Group>}
        {status.error && <SetupClosed error={status.error} />}
        {status.data && <SetupWizard urls={status.data.urls} />}
      </Stack>
    </Container>
  )
}

function SetupClosed({ error }: { error: unknown }) {
  const done = error instanceof ApiError && error.status === 409
  return (
    <Alert color={done ? 'blue' : 'red'} title={done ? 'This server is set up' : 'Setup is not possible here'} role="alert">
      <Stack gap="xs">
        <Text>{(error as Error).message}</Text>
        {done && <Anchor href="/">Go to the login page</Anchor>}
      </Stack>
    </Alert>
  )
}

function SetupWizard({ urls }: { urls: string[] }) {
  const [step, setStep] = useState(0)
  const [form, setForm] = useState<SetupRequest>({
    adminuname: 'admin', adminfullname: '', adminpassword: '', collectoruname: 'monit', collectorpassword: randomPassword()
  })
  const [confirm, setConfirm] = useState('')
  const [result, setResult] = useState<SetupResult>()
  const submit = useMutation({
    mutationFn: completeSetup,
    onSuccess: (created) => { setResult(created); setStep(2) },
    // An error about the administrator's fields sends the user back to them.
    onError: (error) => { if (formErrors(error, ADMIN_FIELDS).general === undefined) setStep(0) }
  })
  const set = (key: keyof SetupRequest) => (e: { currentTarget: { value: string } }) => {
    setForm({ ...form, [key]: e.currentTarget.value })
    // The server's complaint was about what stood there before.
    if (submit.error) submit.reset()
  }
  const adminErrors = formErrors(submit.error, ADMIN_FIELDS)
  const collectorErrors = formErrors(submit.error, COLLECTOR_FIELDS)

  // Checked here too, so the user learns at once; the server checks again.
  const adminProblem = form.adminuname.trim() === '' ? 'Choose a user name.'
    : form.adminpassword.length < 8 ? 'The password needs at least 8 characters.'
      : form.adminpassword !== confirm ? 'The two passwords differ.' : undefined
  const collectorProblem = !URL_SAFE.test(form.collectoruname) ? 'The collector name may hold letters and digits only.'
    : !URL_SAFE.test(form.collectorpassword) || form.collectorpassword.length < 8
      ? 'The collector password needs at least 8 letters and digits (Monit sends it in a URL).' : undefined
  const [tried, setTried] = useState(false)

  const next = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (adminProblem) return
    setTried(false)
    setStep(1)
  }
  const finish = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (!collectorProblem) submit.mutate(form)
  }

  return (
    <Paper withBorder p="lg">
      <Stepper active={step} onStepClick={(s) => s < step && step < 2 && setStep(s)} allowNextStepsSelect={false}>
        <Stepper.Step label="Administrator" description="Your own account">
          <form onSubmit={next} noValidate>
            <Stack mt="md">
              <Text>Nobody can log in yet. Create the administrator account you will log in with.</Text>
              <TextInput label="User name" required value={form.adminuname} onChange={set('adminuname')} error={adminErrors.of('adminuname')} autoFocus />
              <TextInput label="Full name" value={form.adminfullname} onChange={set('adminfullname')} error={adminErrors.of('adminfullname')} />
              <PasswordInput label="Password" description="At least 8 characters" required value={form.adminpassword}
                onChange={set('adminpassword')} error={adminErrors.of('adminpassword')} />
              <PasswordInput label="Repeat the password" required value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
              {tried && adminProblem && <Alert color="red" role="alert">{adminProblem}</Alert>}
              <Group justify="flex-end"><Button type="submit">Next</Button></Group>
            </Stack>
          </form>
        </Stepper.Step>
        <Stepper.Step label="Collector" description="What agents report as">
          <form onSubmit={finish} noValidate>
            <Stack mt="md">
              <Text>
                Monit agents log in to this server with a collector user. Use letters and digits only: Monit puts these
                credentials in a URL without encoding them.
              </Text>
              <TextInput label="Collector user name" required value={form.collectoruname} onChange={set('collectoruname')}
                error={collectorErrors.of('collectoruname')} />
              <Group align="flex-end" wrap="nowrap">
                <TextInput label="Collector password" required value={form.collectorpassword} onChange={set('collectorpassword')}
                  error={collectorErrors.of('collectorpassword')} style={{ flex: 1 }} styles={{ input: { fontFamily: 'monospace' } }} />
                <Button variant="default" onClick={() => setForm({ ...form, collectorpassword: randomPassword() })}>New password</Button>
              </Group>
              {tried && collectorProblem && <Alert color="red" role="alert">{collectorProblem}</Alert>}
              <ErrorNote error={collectorErrors.general !== undefined && adminErrors.general !== undefined ? submit.error : undefined} title="Setup failed" />
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>Back</Button>
                <Button type="submit" loading={submit.isPending}>Create both accounts</Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>
        <Stepper.Completed>
          {result && <SetupDone result={result} password={form.collectorpassword} fallbackUrls={urls} />}
        </Stepper.Completed>
      </Stepper>
    </Paper>
  )
}

function SetupDone({ result, password, fallbackUrls }: { result: SetupResult; password: string; fallbackUrls: string[] }) {
  return (
    <Stack mt="md">
      <Alert color="green" title="Setup is done">
        The administrator <b>{result.admin.uname}</b> and the collector user <b>{result.collector.uname}</b> exist now.
      </Alert>
      <Text>Put this line in the monitrc of every Monit agent, then reload Monit (<Text span ff="monospace">monit reload</Text>):</Text>
      <MonitrcLineChooser user={result.collector.uname} password={password} urls={result.urls.length ? result.urls : fallbackUrls} />
      <Text size="sm" c="dimmed">
        Keep the collector password: it is not shown again (an administrator can set a new one under Settings).
      </Text>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={500}>Be told when something fails (optional)</Text>
          <Text size="sm" c="dimmed">
            Overseer can send alerts by e-mail, to a webhook and more. Choose one to set it up as soon as you have logged in, or skip this:
            you can add channels later under Administration › Alerts.
          </Text>
          <Group>
            <Button component="a" href="/" variant="light" onClick={() => rememberFirstChannel('email')}>Add an e-mail channel</Button>
            <Button component="a" href="/" variant="light" onClick={() => rememberFirstChannel('webhook')}>Add a webhook</Button>
          </Group>
        </Stack>
      </Paper>
      <Group justify="flex-end">
        <Button component="a" href="/">Log in</Button>
      </Group>
    </Stack>
  )
}
