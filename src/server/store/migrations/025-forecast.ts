// Each resource series' forecast (issue 30 §3): when a filesystem's space or inodes, memory or swap
// reaches 100 % at its current trend, as the forecast job last computed it, so that the fleet's "running
// out" list is one indexed read. A row per statistic, gone with it (and so with its service and host).
export const forecast = {
  version: 25,
  name: 'forecast',
  sql: `
CREATE TABLE forecast (
  statistic_id INTEGER PRIMARY KEY REFERENCES statistic(id) ON DELETE CASCADE,
  host_id INTEGER NOT NULL REFERENCES host(id) ON DELETE CASCADE,
  service_id INTEGER NOT NULL REFERENCES service(id) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  percent REAL NOT NULL,
  slope REAL NOT NULL,
  confidence REAL NOT NULL,
  window_sec INTEGER NOT NULL,
  full_at INTEGER,
  computed_at INTEGER NOT NULL
);
CREATE INDEX forecast_full_at ON forecast (full_at) WHERE full_at IS NOT NULL;
CREATE INDEX forecast_host ON forecast (host_id);
`
}
