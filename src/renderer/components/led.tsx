// A status LED as M/Monit shows it, with its meaning in text for screen readers and tooltips.
import { Box, Tooltip } from '@mantine/core'
import { Led as LedCode } from '../../shared/codes'

const look: Record<number, { color: string; label: string }> = {
  [LedCode.Red]: { color: 'var(--mantine-color-red-6)', label: 'Error' },
  [LedCode.Orange]: { color: 'var(--mantine-color-orange-5)', label: 'Changed' },
  [LedCode.Green]: { color: 'var(--mantine-color-green-6)', label: 'OK' },
  [LedCode.Gray]: { color: 'var(--mantine-color-gray-5)', label: 'Not monitored or inactive' }
}

/**
 * A host's LED sums up its services: orange there means some (not all) services fail or changed, so it
 * is not labelled "Changed" as a service's orange LED is.
 */
const hostLabels: Record<number, string> = {
  [LedCode.Red]: 'Failing',
  [LedCode.Orange]: 'Some services failing or changed',
  [LedCode.Green]: 'OK',
  [LedCode.Gray]: 'Inactive, ignored or not monitored'
}

export function ledLabel(led: number, host = false): string {
  return (host ? hostLabels[led] : look[led]?.label) ?? 'Unknown'
}

/** `host`: the LED of a host rather than of a service. */
export function Led({ led, size = 12, host = false }: { led: number; size?: number; host?: boolean }) {
  const { color } = look[led] ?? look[LedCode.Gray]
  const label = ledLabel(led, host)
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        data-led={led}
        style={{ display: 'inline-block', width: size, height: size, borderRadius: '50%', background: color, flexShrink: 0 }}
      />
    </Tooltip>
  )
}
