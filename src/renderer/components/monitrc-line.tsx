// The line an administrator pastes into each agent's monitrc, with a copy button, and a choice of the
// server's addresses: agents on the LAN cannot reach 127.0.0.1, so loopback comes last. The chooser
// adds the other monitrc lines an agent needs (components/agent-settings.tsx). Over HTTPS the line pins
// the server's certificate (components/pinned-certificate.tsx).
import { Button, Code, CopyButton, Group, Select, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import { AGENT_CERTIFICATE_FILE } from '../../shared/api/tls'
import { AgentSettings } from './agent-settings'
import { PinnedCertificate } from './pinned-certificate'

export function monitrcLine(user: string, password: string, origin = window.location.origin): string {
  const url = new URL('/collector', origin)
  const line = `set mmonit ${url.protocol}//${encodeURIComponent(user)}:${encodeURIComponent(password)}@${url.host}/collector`
  // verify: enable checks the server's certificate against the agent's copy of it, and nothing else.
  return url.protocol === 'https:' ? `${line}\n    with ssl { verify: enable, cacertificatefile: ${AGENT_CERTIFICATE_FILE} }` : line
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

const isLoopback = (url: string) => /^https?:\/\/(127\.|\[::1\]|localhost)/.test(url)

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
      <Text size="sm" data-testid="own-accounts">
        Best: an account of its own for each agent (a user whose role holds the Collector permission on that agent&apos;s hosts only, under
        Users and Roles): one agent&apos;s monitrc then exposes that agent only, and its account can be shut alone. This shared account is
        the fallback.
      </Text>
      <MonitrcLine line={monitrcLine(user, password, origin)} />
      {new URL(origin).protocol === 'https:' && <PinnedCertificate origin={origin} />}
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
