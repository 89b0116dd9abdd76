// The LED for long lists: the same colours and accessible label as components/led.tsx, with the
// browser's own title instead of a Mantine Tooltip, whose floating-position hooks per row made the
// first render of the hosts list about twice as slow.
import { ledLabel } from '../../components/led'

const colours = [
  'var(--mantine-color-red-6)',
  'var(--mantine-color-orange-5)',
  'var(--mantine-color-green-6)',
  'var(--mantine-color-gray-5)'
]

/** `host`: the LED of a host rather than of a service (components/led.tsx). */
export function LedDot({ led, size = 12, host = false }: { led: number; size?: number; host?: boolean }) {
  const label = ledLabel(led, host)
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-led={led}
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: '50%',
        background: colours[led] ?? colours[3],
        flexShrink: 0
      }}
    />
  )
}
