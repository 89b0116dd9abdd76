// Reserved for issue 26 (agent-certificates): its tables and columns (SQLite). Replaced by the change that fills it.
export const agentCertificates = {
  version: 14,
  name: 'agent-certificates',
  sql: `
SELECT 1;
`
}
