// The agent's TLS certificate as the server pins it (trust on first use): its fingerprint in the host
// editor, and the alert that holds call-backs when the agent presented another one.
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core'
import type { AdminHost } from '../api/admin'

const Fingerprint = ({ sha256 }: { sha256: string }) => (
  <Text span ff="monospace" size="xs" style={{ overflowWrap: 'anywhere' }}>
    {sha256}
  </Text>
)

/** The pinned fingerprint, when the agent is called over TLS or one was pinned. */
export function PinnedCertificate({ host, tls }: { host: AdminHost; tls: boolean }) {
  if (!tls && host.agentcert === '') return null
  return (
    <Text size="sm" c="dimmed" data-testid="agent-certificate">
      Agent certificate (SHA-256):{' '}
      {host.agentcert === '' ? (
        'none pinned yet; the first call over TLS pins the one the agent presents'
      ) : (
        <Fingerprint sha256={host.agentcert} />
      )}
    </Text>
  )
}

/** Another certificate was presented: every call-back is refused until an administrator accepts it. */
export function CertificateChanged({ host, accepting, onAccept }: { host: AdminHost; accepting: boolean; onAccept: () => void }) {
  if (host.agentcertseen === '') return null
  return (
    <Alert color="orange" title="The agent presented another certificate" data-testid="certificate-changed">
      <Stack gap="xs">
        <Text size="sm">
          Pinned: <Fingerprint sha256={host.agentcert} />
        </Text>
        <Text size="sm">
          Presented: <Fingerprint sha256={host.agentcertseen} />
        </Text>
        <Text size="sm">
          Calls to this agent are refused before its credentials are sent. Accept only if the agent was given a new certificate (compare
          with <Code>openssl x509 -noout -fingerprint -sha256 -in</Code> its pemfile): otherwise something else answers at its address.
        </Text>
        <Group>
          <Button size="xs" color="orange" onClick={onAccept} loading={accepting}>
            Accept certificate
          </Button>
        </Group>
      </Stack>
    </Alert>
  )
}
