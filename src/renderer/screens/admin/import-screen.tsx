// Administration › Import from M/Monit (issue 27). `firstrun` comes from the setup screen's offer.
import { Stack, Title } from '@mantine/core'
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../../app/root-route'
import { MMonitImport } from './import-form'

export const adminImportRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/import',
  validateSearch: (s: Record<string, unknown>): { firstrun?: boolean } =>
    s.firstrun === true || s.firstrun === 'true' ? { firstrun: true } : {},
  component: AdminImportScreen
})

function AdminImportScreen() {
  const { firstrun } = adminImportRoute.useSearch()
  return (
    <Stack gap="md">
      <Title order={2}>Import from M/Monit</Title>
      <MMonitImport firstRun={firstrun} />
    </Stack>
  )
}
