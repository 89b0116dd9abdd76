// Since when a running server's collector could not store (PostgreSQL, as migrations/024-server-run-reports-held.ts).
export const serverRunReportsHeld = {
  version: 24,
  name: 'server-run-reports-held',
  sql: `ALTER TABLE server_run ADD COLUMN reports_held_since BIGINT;`
}
