// The import's progress while it runs, and its final report in words: per kind what M/Monit held and
// what came over, what was left out and why, what to act on, and what the source cannot give.
import { Alert, Button, Group, List, Progress, Stack, Text, Title } from '@mantine/core'
import type { ImportReportShape, ImportStatus } from '../../api/mmonit-import'

const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}`

/** The importer's step names where they are M/Monit's table names rather than words. */
const KIND_WORDS: Record<string, string> = {
  names: 'names (of hosts, services and groups)',
  statistics: 'statistic series',
  history: 'history samples and roll-ups'
}
const kind = (step: string) => KIND_WORDS[step] ?? step

export function ImportProgress({ status, onCancel, cancelling }: { status: ImportStatus; onCancel: () => void; cancelling: boolean }) {
  const share = status.expected > 0 ? Math.min(100, (status.rows / status.expected) * 100) : 0
  return (
    <Stack gap="xs" data-testid="import-progress" aria-live="polite">
      <Text fw={500}>
        {status.dryRun ? 'Counting' : 'Importing'} from {status.source}
      </Text>
      {status.step ? (
        <>
          <Text size="sm">
            Step {status.stepIndex + 1} of {status.stepCount}: {kind(status.step)}, {count(status.rows, 'rows')} of{' '}
            {status.expected.toLocaleString('en')}
            {status.etaSeconds !== null && ` (about ${duration(status.etaSeconds)} left in this step)`}
          </Text>
          <Progress value={share} aria-label={`${status.step}: ${Math.round(share)} %`} animated />
        </>
      ) : (
        <Text size="sm">Reading M/Monit…</Text>
      )}
      <Group>
        <Button variant="default" color="red" onClick={onCancel} loading={cancelling}>
          Cancel after this batch
        </Button>
      </Group>
    </Stack>
  )
}

export function ImportReportView({ report, source }: { report: ImportReportShape; source: string | null }) {
  const skipped = report.steps.flatMap((s) => s.skipped.map((k) => ({ step: s.name, ...k })))
  const warnings = report.steps.flatMap((s) => s.warnings)
  return (
    <Stack gap="sm" data-testid="import-report">
      <Alert color={report.dryRun ? 'blue' : 'green'} title={report.dryRun ? 'Dry run: nothing was written' : 'Imported, counts verified'}>
        {report.dryRun
          ? `M/Monit (schema ${report.schemaVersion}) at ${source} can be read. This is what an import would read:`
          : `From M/Monit (schema ${report.schemaVersion}) at ${source}, in ${report.seconds.toFixed(1)} s:`}
      </Alert>
      <List spacing={4} size="sm" aria-label="Per kind">
        {report.steps.map((s) => (
          <List.Item key={s.name}>
            {report.dryRun
              ? count(s.expected, kind(s.name))
              : `${count(s.imported, kind(s.name))} imported of ${s.expected.toLocaleString('en')}`}
            {!report.dryRun &&
              s.skipped.length > 0 &&
              `, ${s.skipped.reduce((n, k) => n + (k.rows ?? 1), 0).toLocaleString('en')} left out`}
          </List.Item>
        ))}
      </List>
      {skipped.length > 0 && (
        <>
          <Title order={4}>Left out, and why</Title>
          <List spacing={4} size="sm" aria-label="Left out">
            {skipped.map((k, i) => (
              <List.Item key={i}>
                {k.what}: {k.why}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {warnings.length > 0 && (
        <>
          <Title order={4}>To act on</Title>
          <List spacing={4} size="sm">
            {warnings.map((w, i) => (
              <List.Item key={i}>{w}</List.Item>
            ))}
          </List>
        </>
      )}
      {report.limits.length > 0 && (
        <>
          <Title order={4}>Not available from this source</Title>
          <List spacing={4} size="sm">
            {report.limits.map((l, i) => (
              <List.Item key={i}>{l}</List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  )
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}
