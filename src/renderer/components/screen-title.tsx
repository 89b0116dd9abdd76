// A screen's title, with a small spinner beside it while its data refreshes.
import { Group, Loader, Title } from '@mantine/core'

export function ScreenTitle({ title, loading, loadingLabel }: { title: string; loading: boolean; loadingLabel: string }) {
  return (
    <Group justify="space-between">
      <Title order={2}>{title}</Title>
      {loading && <Loader size="sm" aria-label={loadingLabel} />}
    </Group>
  )
}
