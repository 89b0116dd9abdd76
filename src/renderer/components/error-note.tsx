// An API error shown next to what caused it, in words the server chose.
import { Alert } from '@mantine/core'
import { errorMessage } from '../api/client'

export function ErrorNote({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  )
}
