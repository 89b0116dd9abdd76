// The certificate an agent's httpd presents over TLS, trusted on first use: agent_cert_sha256 is the
// pinned SHA-256 fingerprint ('' until the first TLS call-back), agent_cert_seen_sha256 the latest other
// one presented ('' when none). A call-back to a different certificate is refused before the credentials
// are sent, until an administrator accepts the seen one.
export const agentCertificates = {
  version: 14,
  name: 'agent-certificates',
  sql: `
ALTER TABLE host ADD COLUMN agent_cert_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE host ADD COLUMN agent_cert_seen_sha256 TEXT NOT NULL DEFAULT '';
`
}
