// Administration › Import from M/Monit (issue 27). `firstrun` comes from the setup screen's offer.
import { Stack, Title } from '@mantine/core'
import { MMonitImport } from './import-form'
import { adminImportRoute } from '../../app/routes'

export function AdminImportScreen() {
  const { firstrun } = adminImportRoute.useSearch()
  return (
    <Stack gap="md">
      <Title order={2}>Import from M/Monit</Title>
      <MMonitImport firstRun={firstrun} />
    </Stack>
  )
}
