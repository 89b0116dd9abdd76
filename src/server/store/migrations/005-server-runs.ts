// The server's own runs (issue 12): one row per start, with a periodically refreshed "alive" stamp and
// the clean stop time. The gap from a run's stop (or, after a crash or kill -9, its last alive stamp) to
// the next start is the server's downtime, which uptime reports treat as unknown instead of as down.
export const serverRuns = {
  version: 5,
  name: 'server-runs',
  sql: `
CREATE TABLE server_run (
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  alive_at INTEGER NOT NULL,
  stopped_at INTEGER
);
CREATE INDEX server_run_start ON server_run (started_at);
`
}
