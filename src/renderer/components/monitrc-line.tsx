// The line an administrator pastes into each agent's monitrc, with a copy button.
import { Code, CopyButton, Button, Group } from '@mantine/core'

export function monitrcLine(user: string, password: string, origin = window.location.origin): string {
  const url = new URL('/collector', origin)
  return `set mmonit http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${url.host}/collector`
}

export function MonitrcLine({ line }: { line: string }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Code block style={{ flex: 1 }} data-testid="monitrc-line">{line}</Code>
      <CopyButton value={line}>
        {({ copied, copy }) => <Button variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
      </CopyButton>
    </Group>
  )
}
