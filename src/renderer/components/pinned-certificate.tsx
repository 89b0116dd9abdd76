// What an agent needs to report over HTTPS to a server with its own (self-signed) certificate: a copy of
// that certificate, which Monit verifies the server against (cacertificatefile in the set mmonit line).
import { Anchor, Code, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { AGENT_CERTIFICATE_FILE, CERTIFICATE_PATH } from '../../shared/api/tls'
import { certificateFingerprint } from './certificate-fingerprint'

export function PinnedCertificate({ origin }: { origin: string }) {
  const download = new URL(CERTIFICATE_PATH, origin).href
  // Only the page's own server can be asked (connect-src 'self'); another address shows no fingerprint.
  const sameServer = new URL(origin).origin === window.location.origin
  const fingerprint = useQuery({
    queryKey: ['tls-certificate'],
    queryFn: async () => {
      const answer = await fetch(CERTIFICATE_PATH)
      if (!answer.ok) throw new Error(`the certificate could not be read: ${answer.status}`)
      return certificateFingerprint(await answer.text())
    },
    enabled: sameServer,
    staleTime: Infinity
  })
  return (
    <Stack gap={4} data-testid="pinned-certificate">
      <Text size="sm">
        This server speaks HTTPS. Save its certificate on each agent as <code>{AGENT_CERTIFICATE_FILE}</code> (
        <Anchor href={download} download="overseer.pem">
          download the certificate
        </Anchor>
        ); Monit then talks only to the server holding its key. Check the copy against the SHA-256 fingerprint (shown below, and logged by
        this server at start):
      </Text>
      <Code
        block
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all'
        }}>{`curl -fk -o ${AGENT_CERTIFICATE_FILE} ${download}\nopenssl x509 -noout -fingerprint -sha256 -in ${AGENT_CERTIFICATE_FILE}`}</Code>
      {fingerprint.data && (
        <Text size="sm" data-testid="certificate-fingerprint">
          SHA-256 fingerprint: <code style={{ display: 'inline-block', overflowWrap: 'anywhere' }}>{fingerprint.data}</code>
        </Text>
      )}
      <Text size="sm" c="dimmed">
        Weaker fallback, for a quick trial only: <code>with ssl {'{ selfsigned: allow }'}</code> instead accepts any self-signed
        certificate, so a machine posing as this server on the network would get the agent&apos;s credentials.
      </Text>
    </Stack>
  )
}
