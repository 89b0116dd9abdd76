// As migrations/014-agent-certificates.ts: the agent's pinned certificate fingerprint (trust on first
// use) and the latest other one presented, waiting for an administrator.
export const agentCertificates = {
  version: 14,
  name: 'agent-certificates',
  sql: `
ALTER TABLE host ADD COLUMN agent_cert_sha256 TEXT NOT NULL DEFAULT '',
  ADD COLUMN agent_cert_seen_sha256 TEXT NOT NULL DEFAULT '';
`
}
