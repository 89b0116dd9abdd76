// The line an administrator pastes into each agent's monitrc, with a copy button, and a choice of the
// server's addresses: agents on the LAN cannot reach 127.0.0.1, so loopback comes last. The chooser
// adds the other monitrc lines an agent needs (components/agent-settings.tsx).
import { Button, Code, CopyButton, Group, Select, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import { AgentSettings } from './agent-settings'

export function monitrcLine(user: string, password: string, origin = window.location.origin): string {
  const url = new URL('/collector', origin)
  return `set mmonit http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${url.host}/collector`
}

export function MonitrcLine({ line }: { line: string }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="monitrc-line">
        {line}
      </Code>
      <CopyButton value={line}>
        {({ copied, copy }) => (
          <Button variant="light" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  )
}

const isLoopback = (url: string) => /^http:\/\/(127\.|\[::1\]|localhost)/.test(url)

/** Listening URLs, the ones agents can reach first; the page's own origin when the server named none. */
export function agentReachableUrls(urls: readonly string[]): string[] {
  const all = urls.length > 0 ? [...urls] : [window.location.origin]
  return [...all.filter((u) => !isLoopback(u)), ...all.filter(isLoopback)]
}

/** The line for one collector user, with the server address to put in it. */
export function MonitrcLineChooser({ user, password, urls }: { user: string; password: string; urls: readonly string[] }) {
  const choices = agentReachableUrls(urls)
  const [origin, setOrigin] = useState(choices[0])
  return (
    <Stack gap="xs">
      {choices.length > 1 && (
        <Select
          label="Address the agents reach this server at"
          data={choices}
          value={origin}
          allowDeselect={false}
          onChange={(value) => value && setOrigin(value)}
          maw={420}
        />
      )}
      <MonitrcLine line={monitrcLine(user, password, origin)} />
      {choices.every(isLoopback) && (
        <Text size="sm" c="orange" data-testid="loopback-only">
          This server listens on this machine's loopback address only, which agents on other machines cannot reach: start it with --host
          0.0.0.0 (or OVERSEER_HOST) for the LAN.
        </Text>
      )}
      <AgentSettings serverHost={new URL(origin).hostname} />
    </Stack>
  )
}
