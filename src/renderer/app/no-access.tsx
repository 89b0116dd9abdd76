// What a user without administration rights sees at an administration address (a bookmark, a shared
// link): a plain answer instead of a screen of failed requests.
import { Button, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'

export function NoAccess() {
  return (
    <Stack align="flex-start" data-testid="no-access">
      <Title order={2}>No access</Title>
      <Text>This page is for administrators. Ask one if you need what it offers.</Text>
      <Button component={Link} to="/">
        Go to the dashboard
      </Button>
    </Stack>
  )
}
