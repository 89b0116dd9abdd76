// Since when a running server's collector could not store what agents sent it (issue 29): the job lease
// holder's heartbeat watchdog holds its judgement while another instance holds reports, as it already does
// for its own collector, instead of declaring those agents dead. Null while the collector stores.
export const serverRunReportsHeld = {
  version: 24,
  name: 'server-run-reports-held',
  sql: `ALTER TABLE server_run ADD COLUMN reports_held_since INTEGER;`
}
