// Server settings for administrators (settings/get|update): the port for the next start, the session
// idle timeout and the statistics history retention, each shown in a human unit and sent in seconds;
// checked in the browser first (server-settings-form.ts).
import { Button, Grid, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { settingsQuery, updateSettings, type ServerSettings } from '../../api/settings'
import { ErrorNote } from '../../components/error-note'
import { changeOf, settingsErrors, valuesOf, type SettingsValues } from './server-settings-form'

export function ServerSettingsForm({ settings }: { settings: ServerSettings }) {
  const queryClient = useQueryClient()
  const form = useForm<SettingsValues>({
    mode: 'controlled',
    initialValues: valuesOf(settings),
    validate: (values) => settingsErrors(values, settings.limits)
  })
  const save = useMutation({
    mutationFn: updateSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsQuery.queryKey, saved)
      form.setValues(valuesOf(saved))
    }
  })
  const restartNeeded = settings.port !== null && settings.listeningport !== null && settings.port !== settings.listeningport

  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit((values) => save.mutate(changeOf(values)))} noValidate>
        <Stack gap="md">
          <Title order={3} size="h4">
            Server
          </Title>
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label="Port"
                min={settings.limits.port.min}
                max={settings.limits.port.max}
                allowDecimal={false}
                {...form.getInputProps('port')}
                placeholder={`${settings.defaultport} (default)`}
                description={`Listening on ${settings.listeningport ?? '?'} now. Used from the next start, unless --port or OVERSEER_PORT sets one.`}
              />
              {restartNeeded && (
                <Text size="sm" c="orange" mt={4} data-testid="restart-needed">
                  Restart the server to listen on {settings.port}; remember to change the agents' set mmonit lines.
                </Text>
              )}
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label="Session timeout (minutes)"
                description="Idle time after which users must log in again"
                min={Math.ceil(settings.limits.sessiontimeout.min / 60)}
                max={settings.limits.sessiontimeout.max / 60}
                allowDecimal={false}
                {...form.getInputProps('minutes')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label="Events kept (days)"
                description="Older events are deleted, except errors still active"
                min={Math.ceil(settings.limits.eventretention.min / 86_400)}
                max={Math.floor(settings.limits.eventretention.max / 86_400)}
                allowDecimal={false}
                {...form.getInputProps('events')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label="Audit log kept (days)"
                description="Older audit log entries are deleted"
                min={Math.ceil(settings.limits.auditretention.min / 86_400)}
                max={Math.floor(settings.limits.auditretention.max / 86_400)}
                allowDecimal={false}
                {...form.getInputProps('audit')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NumberInput
                label="Running out warning (hours)"
                description="A disk, memory or swap forecast to be full within this raises a Forecast event, which alert rules can send"
                min={Math.ceil(settings.limits.forecasthorizon.min / 3600)}
                max={Math.floor(settings.limits.forecasthorizon.max / 3600)}
                allowDecimal={false}
                {...form.getInputProps('forecast')}
              />
            </Grid.Col>
          </Grid>
          <div>
            <Text fw={500} size="sm">
              Statistics history kept
            </Text>
            <Text size="xs" c="dimmed">
              Each level is rolled up into the next; a coarser level keeps at least as long as a finer one.
            </Text>
          </div>
          <Grid>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Every poll (hours)" min={2} allowDecimal={false} {...form.getInputProps('raw')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per minute (days)" min={2} allowDecimal={false} {...form.getInputProps('minute')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per hour (days)" min={62} allowDecimal={false} {...form.getInputProps('hour')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NumberInput label="Per day (days)" min={62} allowDecimal={false} {...form.getInputProps('day')} />
            </Grid.Col>
          </Grid>
          <ErrorNote error={save.error} title="Not saved" />
          {save.isSuccess && (
            <Text c="teal" size="sm" role="status">
              Settings saved.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save server settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  )
}
