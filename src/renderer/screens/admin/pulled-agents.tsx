// Administration › Pulled agents (issue 30 §1): Monit agents the server reads from their httpd.
import { Stack, Title } from '@mantine/core'

export function AdminPulledAgentsScreen() {
  return (
    <Stack gap="md">
      <Title order={2}>Pulled agents</Title>
    </Stack>
  )
}
