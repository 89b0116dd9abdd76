import { Button, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'

export function NotFound() {
  return (
    <Stack align="flex-start">
      <Title order={2}>Not found</Title>
      <Text>There is no such page in the console.</Text>
      <Button component={Link} to="/">
        Go to the dashboard
      </Button>
    </Stack>
  )
}
