// Reserved for issue 26 (audit-log): its tables and columns (SQLite). Replaced by the change that fills it.
export const auditLog = {
  version: 15,
  name: 'audit-log',
  sql: `
SELECT 1;
`
}
