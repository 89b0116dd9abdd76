// Reserved for issue 26 (audit-log): its tables and columns (PostgreSQL, as migrations/015-audit-log.ts). Replaced by the change that fills it.
export const auditLog = {
  version: 15,
  name: 'audit-log',
  sql: `
SELECT 1;
`
}
