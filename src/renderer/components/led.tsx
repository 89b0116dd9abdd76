// A status LED as M/Monit shows it, with its meaning in text for screen readers and tooltips.
import { Box, Tooltip } from '@mantine/core'
import { Led as LedCode } from '../../shared/codes'

const look: Record<number, { color: string; label: string }> = {
  [LedCode.Red]: { color: 'var(--mantine-color-red-6)', label: 'Error' },
  [LedCode.Orange]: { color: 'var(--mantine-color-orange-5)', label: 'Changed' },
  [LedCode.Green]: { color: 'var(--mantine-color-green-6)', label: 'OK' },
  [LedCode.Gray]: { color: 'var(--mantine-color-gray-5)', label: 'Not monitored or inactive' }
}

export function ledLabel(led: number): string {
  return look[led]?.label ?? 'Unknown'
}

export function Led({ led, size = 12 }: { led: number; size?: number }) {
  const { color, label } = look[led] ?? look[LedCode.Gray]
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <Box component="span" role="img" aria-label={label} data-led={led}
        style={{ display: 'inline-block', width: size, height: size, borderRadius: '50%', background: color, flexShrink: 0 }} />
    </Tooltip>
  )
}
