// Where the HTTP API is described: the OpenAPI 3.1 document the server serves (GET /api/2/openapi.json),
// as a URL for API tools and a download (a link would replace the console in the desktop app's window).
import { Anchor, Code, Paper, Stack, Text, Title } from '@mantine/core'

const OPENAPI_PATH = '/api/2/openapi.json'

export function ApiDescription() {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h4">
          HTTP API
        </Title>
        <Text size="sm" c="dimmed">
          M/Monit's API and Overseer's extensions, described as OpenAPI 3.1 for client generators and API tools.
        </Text>
        <Code>{`${window.location.origin}${OPENAPI_PATH}`}</Code>
        <Anchor href={OPENAPI_PATH} download="overseer-openapi.json" size="sm">
          Download openapi.json
        </Anchor>
      </Stack>
    </Paper>
  )
}
