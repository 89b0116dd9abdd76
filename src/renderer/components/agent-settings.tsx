// The rest of an agent's monitrc beside `set mmonit`: the event queue, so that nothing is lost while
// this server is down, and Monit's httpd with the `allow` lines service actions need (the agent sends
// its first read-write user to the server, which calls it back). One note per line says why.
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import { randomPassword } from './random-password'

export interface AgentSettingLine {
  line: string
  note: string
}

/** The lines for agents reporting to `serverHost`, with `actionPassword` for the actions user. */
export function agentSettingLines(serverHost: string, actionPassword: string): AgentSettingLine[] {
  return [
    {
      line: 'set eventqueue basedir /var/lib/monit/events slots 1000',
      note: 'Keeps events on disk while this server cannot be reached and sends them once it is back; without it they are lost.'
    },
    {
      line: 'set httpd port 2812 and use address 0.0.0.0',
      note: "Monit's own web interface: Overseer calls it to start, stop, restart, monitor and unmonitor services."
    },
    { line: `    allow ${serverHost}`, note: 'This server may connect.' },
    { line: '    allow localhost', note: 'The monit command on the agent keeps working.' },
    {
      line: `    allow admin:${actionPassword}`,
      note: 'The first read-write user: the agent tells Overseer, which uses it for actions. A read-only user cannot run actions.'
    }
  ]
}

export function AgentSettings({ serverHost }: { serverHost: string }) {
  const [password] = useState(randomPassword)
  const lines = agentSettingLines(serverHost, password)
  const text = lines.map((l) => l.line).join('\n')
  return (
    <Stack gap="xs" data-testid="agent-settings">
      <Group justify="space-between" align="flex-end">
        <Text size="sm">For service actions and to lose nothing while this server is down, add these lines too:</Text>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" size="xs" onClick={copy}>
              {copied ? 'Copied' : 'Copy these lines'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {lines.map(({ line, note }) => (
        <div key={line}>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {line}
          </Code>
          <Text size="xs" c="dimmed" mt={2}>
            {note}
          </Text>
        </div>
      ))}
    </Stack>
  )
}
