// A screen's title, with a small spinner beside it while its data refreshes.
import { Group, Loader, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** A screen's title with its loading mark, and the screen's own buttons (`actions`: an export, …) beside it. */
export function ScreenTitle({
  title,
  loading,
  loadingLabel,
  actions
}: {
  title: string
  loading: boolean
  loadingLabel: string
  actions?: ReactNode
}) {
  return (
    <Group justify="space-between">
      <Title order={2}>{title}</Title>
      <Group gap="sm">
        {loading && <Loader size="sm" role="status" aria-label={loadingLabel} />}
        {actions}
      </Group>
    </Group>
  )
}
