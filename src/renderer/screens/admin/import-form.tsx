// "Import from M/Monit", shared by Administration and the first run after setup: the source and options,
// a dry run first (the import is offered once the same source and options have been counted), then the
// import's progress and its report. Every refusal is told with what to do about it; a target holding
// data is offered the merge.
import { Alert, Button, Checkbox, Group, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError, errorMessage } from '../../api/client'
import { cancelImport, importStatusQuery, startImport, type ImportOptions, type ImportStatus } from '../../api/mmonit-import'
import { ImportProgress, ImportReportView } from './import-report'
import { LOCATION_HINT, SOURCE_KINDS, sourceUrl, type SourceFields, type SourceKind } from './import-source'

/** What each refusal means for the one who filled the form. */
function advice(status: number): string {
  if (status === 400) return 'Check the source and the options.'
  if (status === 409) return 'Another import may be running, or this server already holds data.'
  if (status === 422) return 'The source was reached but cannot be imported as it is.'
  if (status === 502)
    return 'The database server or M/Monit could not be reached or read: check its address, user and password, and that it lets this server in.'
  return ''
}

/** The server's refusal in the console's words: the command line's "pass --merge" is the button here. */
function refusalText(error: unknown, notEmpty: boolean): string {
  const message = errorMessage(error)
  return notEmpty ? `${message.replace(/: pass --merge.*$/, '')}. Merging keeps it, and matches hosts by their Monit id.` : message
}

export function MMonitImport({ firstRun = false }: { firstRun?: boolean }) {
  const queryClient = useQueryClient()
  // Four kinds side by side do not fit a phone's width.
  const narrow = useMediaQuery('(max-width: 30em)')
  const status = useQuery(importStatusQuery)
  const [fields, setFields] = useState<SourceFields>({ kind: 'sqlite', location: '', user: '', password: '' })
  // After setup the server holds its administrator and collector user: merging keeps them.
  const [options, setOptions] = useState<Omit<ImportOptions, 'dryRun'>>({ merge: firstRun, since: '', noHistory: false })
  const [problem, setProblem] = useState<string>()
  /** The source and options of the last dry run that succeeded: the import is offered for those. */
  const [counted, setCounted] = useState<string>()
  const built = sourceUrl(fields)
  // Merge is left out: a dry run writes nothing, so it counts the same either way.
  const key = 'url' in built ? JSON.stringify([built.url, options.since, options.noHistory]) : undefined
  const show = (answer: ImportStatus) => queryClient.setQueryData(importStatusQuery.queryKey, answer)
  const start = useMutation({
    mutationFn: ({ url, dryRun }: { url: string; dryRun: boolean }) => startImport(url, { ...options, dryRun }),
    onSuccess: (answer, { dryRun }) => {
      show(answer)
      if (dryRun) setCounted(key)
    },
    onError: () => void queryClient.invalidateQueries(importStatusQuery)
  })
  const cancel = useMutation({ mutationFn: cancelImport, onSettled: () => void queryClient.invalidateQueries(importStatusQuery) })
  const current = status.data
  const running = current?.state === 'running'

  const run = (dryRun: boolean) => (e?: FormEvent) => {
    e?.preventDefault()
    if ('problem' in built) return setProblem(built.problem)
    setProblem(undefined)
    start.mutate({ url: built.url, dryRun })
  }
  const set = (patch: Partial<SourceFields>) => setFields((f) => ({ ...f, ...patch }))
  const refused = start.error instanceof ApiError ? start.error : undefined
  const notEmpty = refused?.status === 409 && /already holds data/.test(refused.message)

  return (
    <Stack gap="md">
      {firstRun && (
        <Alert color="blue" title="Bring your M/Monit installation over">
          Hosts, groups, services, users (with their M/Monit passwords), events, alert rules and statistics history. The administrator you
          just created stays; M/Monit users of the same name are left as they are here.
        </Alert>
      )}
      <Paper withBorder p="md">
        <form onSubmit={run(true)} noValidate aria-label="Import from M/Monit">
          <Stack gap="sm">
            <SegmentedControl
              fullWidth
              data={SOURCE_KINDS.map((k) => ({ ...k }))}
              value={fields.kind}
              onChange={(kind) => set({ kind: kind as SourceKind })}
              aria-label="Where M/Monit's data is"
              orientation={narrow ? 'vertical' : 'horizontal'}
              disabled={running}
            />
            <TextInput
              label={LOCATION_HINT[fields.kind].label}
              placeholder={LOCATION_HINT[fields.kind].placeholder}
              value={fields.location}
              onChange={(e) => set({ location: e.currentTarget.value })}
              required
              maxLength={1500}
              disabled={running}
            />
            {fields.kind !== 'sqlite' && (
              <Group grow align="flex-start" wrap="wrap">
                <TextInput
                  label={fields.kind === 'api' ? 'M/Monit administrator' : 'Database user'}
                  value={fields.user}
                  onChange={(e) => set({ user: e.currentTarget.value })}
                  autoComplete="off"
                  disabled={running}
                  miw={160}
                />
                <PasswordInput
                  label="Password"
                  value={fields.password}
                  onChange={(e) => set({ password: e.currentTarget.value })}
                  autoComplete="off"
                  disabled={running}
                  miw={160}
                />
              </Group>
            )}
            <Checkbox
              label="Merge into the data this server already holds (hosts matched by their Monit id)"
              checked={options.merge}
              onChange={(e) => setOptions((o) => ({ ...o, merge: e.currentTarget.checked }))}
              disabled={running}
            />
            <Checkbox
              label="Leave the statistics history behind"
              description={fields.kind === 'api' ? "M/Monit's API gives no history" : undefined}
              checked={options.noHistory || fields.kind === 'api'}
              onChange={(e) => setOptions((o) => ({ ...o, noHistory: e.currentTarget.checked }))}
              disabled={running || fields.kind === 'api'}
            />
            <TextInput
              type="date"
              label="Only events and history since (optional)"
              value={options.since}
              onChange={(e) => setOptions((o) => ({ ...o, since: e.currentTarget.value }))}
              disabled={running}
              maw={260}
            />
            {problem && (
              <Text c="red" size="sm" role="alert">
                {problem}
              </Text>
            )}
            {start.error && (
              <Alert color="red" variant="light" title="The import could not start" role="alert">
                <Stack gap="xs">
                  <Text size="sm">{refusalText(start.error, notEmpty)}</Text>
                  {refused && !notEmpty && advice(refused.status) && <Text size="sm">{advice(refused.status)}</Text>}
                  {notEmpty && (
                    <Group>
                      <Button
                        size="xs"
                        onClick={() => {
                          setOptions((o) => ({ ...o, merge: true }))
                          start.reset()
                        }}>
                        Merge into the existing data
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Alert>
            )}
            <Group justify="flex-end">
              <Button
                type="submit"
                variant={counted === key ? 'default' : 'filled'}
                loading={start.isPending && start.variables?.dryRun}
                disabled={running}>
                Dry run
              </Button>
              <Button
                onClick={run(false)}
                disabled={running || counted !== key}
                loading={start.isPending && !start.variables?.dryRun}
                title={counted === key ? undefined : 'Run a dry run of this source first'}>
                Import
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {current && !start.error && <ImportOutcome status={current} onCancel={() => cancel.mutate()} cancelling={cancel.isPending} />}
    </Stack>
  )
}

function ImportOutcome({ status, onCancel, cancelling }: { status: ImportStatus; onCancel: () => void; cancelling: boolean }) {
  if (status.state === 'idle') return null
  return (
    <Paper withBorder p="md">
      {status.state === 'running' && <ImportProgress status={status} onCancel={onCancel} cancelling={cancelling} />}
      {status.state === 'done' && status.report && <ImportReportView report={status.report} source={status.source} />}
      {(status.state === 'failed' || status.state === 'cancelled') && (
        <Alert
          color={status.state === 'failed' ? 'red' : 'yellow'}
          title={status.state === 'failed' ? 'The last import failed' : 'The last import was cancelled'}>
          <Stack gap={4}>
            <Text size="sm">
              From {status.source}: {status.error}
            </Text>
            {status.errorStatus !== null && advice(status.errorStatus) && <Text size="sm">{advice(status.errorStatus)}</Text>}
          </Stack>
        </Alert>
      )}
    </Paper>
  )
}
