// "Export CSV": makes the file (which may mean asking the server for every page), then downloads it;
// a failure shows beside the button.
import { Button, Group, Text } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { errorMessage } from '../../api/client'
import { downloadText } from '../../components/download'
import { useResetAfterOutage } from '../../live/use-reset-after-outage'

interface ExportButtonProps {
  filename: string
  /** The CSV text. */
  make: () => string | Promise<string>
  label?: string
}

export function ExportButton({ filename, make, label = 'Export CSV' }: ExportButtonProps) {
  const run = useMutation({ mutationFn: async () => downloadText(filename, await make()) })
  useResetAfterOutage(run)
  return (
    <Group gap="xs" wrap="nowrap">
      {run.error && <Text size="xs" c="red" role="alert">{errorMessage(run.error)}</Text>}
      <Button variant="default" size="xs" loading={run.isPending} onClick={() => run.mutate()}>{label}</Button>
    </Group>
  )
}
