// First-run setup, outside the console frame: reachable only in a browser on the server machine while
// no user exists. Step 1 the administrator, step 2 the collector user the agents report as; both are
// created together (one transaction on the server), then the monitrc line is shown and the
// administrator logs in with the normal form — optionally on to a first alert channel (e-mail or webhook),
// or to the import of an M/Monit installation (Administration's import form, first-run mode).
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title
} from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../api/client'
import { completeSetup, setupStatus, type SetupResult } from '../api/setup'
import { rememberFirstChannel } from '../app/first-channel'
import { rememberFirstImport } from '../app/first-import'
import { ErrorNote } from '../components/error-note'
import { MonitrcLineChooser } from '../components/monitrc-line'
import { randomPassword } from '../components/random-password'
import { ADMIN_FIELDS, useSetupForm, type SetupValues } from './setup-form'

export function SetupScreen() {
  const status = useQuery({ queryKey: ['setup'], queryFn: setupStatus, retry: false })
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Welcome to Overseer</Title>
        {status.isPending && (
          <Group>
            <Loader size="sm" />
            <Text>Checking the server…</Text>
          </Group>
        )}
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
  const form = useSetupForm()
  const [result, setResult] = useState<SetupResult>()
  const submit = useMutation({
    mutationFn: ({ confirm: _confirm, ...request }: SetupValues) => completeSetup(request),
    onSuccess: (created) => {
      setResult(created)
      setStep(2)
    }
  })
  const next = (e: FormEvent) => {
    e.preventDefault()
    const { errors } = form.validate()
    // Only this step's fields hold the user back here; the collector's are checked on the next step.
    if (ADMIN_FIELDS.some((field) => errors[field])) return
    form.clearErrors()
    setStep(1)
  }

  return (
    <Paper withBorder p="lg">
      <Stepper active={step} onStepClick={(s) => s < step && step < 2 && setStep(s)} allowNextStepsSelect={false}>
        <Stepper.Step label="Administrator" description="Your own account">
          <form onSubmit={next} noValidate>
            <Stack mt="md">
              <Text>Nobody can log in yet. Create the administrator account you will log in with.</Text>
              <TextInput label="User name" required {...form.getInputProps('adminuname')} autoFocus />
              <TextInput label="Full name" {...form.getInputProps('adminfullname')} />
              <PasswordInput label="Password" description="At least 8 characters" required {...form.getInputProps('adminpassword')} />
              <PasswordInput label="Repeat the password" required {...form.getInputProps('confirm')} />
              <Group justify="flex-end">
                <Button type="submit">Next</Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>
        <Stepper.Step label="Collector" description="What agents report as">
          <form onSubmit={form.onSubmit((values) => submit.mutate(values))} noValidate>
            <Stack mt="md">
              <Text>
                Monit agents log in to this server with a collector user. Use letters and digits only: Monit puts these credentials in a URL
                without encoding them.
              </Text>
              <TextInput label="Collector user name" required {...form.getInputProps('collectoruname')} />
              <Group align="flex-start" wrap="nowrap">
                <TextInput
                  label="Collector password"
                  required
                  {...form.getInputProps('collectorpassword')}
                  style={{ flex: 1 }}
                  styles={{ input: { fontFamily: 'monospace' } }}
                />
                <Button variant="default" mt={25} onClick={() => form.setFieldValue('collectorpassword', randomPassword())}>
                  New password
                </Button>
              </Group>
              <ErrorNote error={submit.error} title="Setup failed" />
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>
                  Back
                </Button>
                <Button type="submit" loading={submit.isPending}>
                  Create both accounts
                </Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>
        <Stepper.Completed>
          {result && <SetupDone result={result} password={form.getValues().collectorpassword} fallbackUrls={urls} />}
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
      <Text>
        Put this line in the monitrc of every Monit agent, then reload Monit (
        <Text span ff="monospace">
          monit reload
        </Text>
        ):
      </Text>
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
            <Button component="a" href="/" variant="light" onClick={() => rememberFirstChannel('email')}>
              Add an e-mail channel
            </Button>
            <Button component="a" href="/" variant="light" onClick={() => rememberFirstChannel('webhook')}>
              Add a webhook
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={500}>Coming from M/Monit?</Text>
          <Text size="sm" c="dimmed">
            Start empty, and agents appear as they report; or import M/Monit's hosts, users (who keep their passwords), events and history
            first: its database or its HTTP API, counted in a dry run before anything is written. You stay the administrator.
          </Text>
          <Group justify="flex-end">
            <Button component="a" href="/" variant="default">
              Log in
            </Button>
            <Button component="a" href="/" onClick={rememberFirstImport}>
              Import from M/Monit
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  )
}
