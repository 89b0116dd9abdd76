// The uptime list's indexes on when down intervals end and which services exist or are not monitored (PostgreSQL, as
// migrations/019-state-interval-end.ts).
export const stateIntervalEnd = {
  version: 19,
  name: 'state-interval-end',
  sql: `
CREATE INDEX state_interval_end ON state_interval ("end", service_name_id, host_id, start);
CREATE INDEX service_host_name_id ON service (host_id, name_id);
CREATE INDEX service_unmonitored ON service (host_id, name_id) WHERE monitor = 0;
`
}
