// Server settings for administrators (settings/get|update): the port for the next start, the session
// idle timeout and the statistics history retention, each shown in a human unit and sent in seconds.
import { Button, Grid, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { settingsQuery, updateSettings, type ServerSettings, type SettingsChange } from '../../api/settings'
import { ErrorNote } from '../../components/error-note'
import { formErrors } from './field-errors'

const HOUR = 3600
const DAY = 86_400
const FIELDS = ['port', 'sessiontimeout', 'retentionraw', 'retentionminute', 'retentionhour', 'retentionday'] as const

interface Draft { port: number | string; minutes: number | string; raw: number | string; minute: number | string; hour: number | string; day: number | string }

const draftOf = (s: ServerSettings): Draft => ({
  port: s.port ?? '', minutes: Math.round(s.sessiontimeout / 60),
  raw: Math.round(s.retention.raw / HOUR), minute: Math.round(s.retention.minute / DAY),
  hour: Math.round(s.retention.hour / DAY), day: Math.round(s.retention.day / DAY)
})

const changeOf = (d: Draft): SettingsChange => ({
  port: d.port === '' ? undefined : Number(d.port), sessiontimeout: Number(d.minutes) * 60,
  retentionraw: Number(d.raw) * HOUR, retentionminute: Number(d.minute) * DAY, retentionhour: Number(d.hour) * DAY, retentionday: Number(d.day) * DAY
})

export function ServerSettingsForm({ settings }: { settings: ServerSettings }) {
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState(() => draftOf(settings))
  const save = useMutation({
    mutationFn: updateSettings,
    onSuccess: (saved) => { queryClient.setQueryData(settingsQuery.queryKey, saved); setDraft(draftOf(saved)) }
  })
  const errors = formErrors(save.error, FIELDS)
  const set = (key: keyof Draft) => (value: number | string) => setDraft((d) => ({ ...d, [key]: value }))
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(changeOf(draft)) }
  const restartNeeded = settings.port !== null && settings.listeningport !== null && settings.port !== settings.listeningport

  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={3} size="h4">Server</Title>
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput label="Port" min={settings.limits.port.min} max={settings.limits.port.max} allowDecimal={false}
                value={draft.port} onChange={set('port')} error={errors.of('port')} placeholder={`${settings.defaultport} (default)`}
                description={`Listening on ${settings.listeningport ?? '?'} now. Used from the next start, unless --port or OVERSEER_PORT sets one.`} />
              {restartNeeded && (
                <Text size="sm" c="orange" mt={4} data-testid="restart-needed">
                  Restart the server to listen on {settings.port}; remember to change the agents' set mmonit lines.
                </Text>
              )}
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput label="Session timeout (minutes)" description="Idle time after which users must log in again"
                min={Math.ceil(settings.limits.sessiontimeout.min / 60)} max={settings.limits.sessiontimeout.max / 60} allowDecimal={false}
                value={draft.minutes} onChange={set('minutes')} error={errors.of('sessiontimeout')} />
            </Grid.Col>
          </Grid>
          <div>
            <Text fw={500} size="sm">Statistics history kept</Text>
            <Text size="xs" c="dimmed">Each level is rolled up into the next; a coarser level keeps at least as long as a finer one.</Text>
          </div>
          <Grid>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Every poll (hours)" min={2} allowDecimal={false} value={draft.raw} onChange={set('raw')} error={errors.of('retentionraw')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per minute (days)" min={2} allowDecimal={false} value={draft.minute} onChange={set('minute')} error={errors.of('retentionminute')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per hour (days)" min={62} allowDecimal={false} value={draft.hour} onChange={set('hour')} error={errors.of('retentionhour')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per day (days)" min={62} allowDecimal={false} value={draft.day} onChange={set('day')} error={errors.of('retentionday')} />
            </Grid.Col>
          </Grid>
          <ErrorNote error={errors.general} title="Not saved" />
          {save.isSuccess && <Text c="teal" size="sm" role="status">Settings saved.</Text>}
          <Group><Button type="submit" loading={save.isPending}>Save server settings</Button></Group>
        </Stack>
      </form>
    </Paper>
  )
}
