// The uptime list's index on when down intervals end (PostgreSQL, as migrations/019-state-interval-end.ts).
export const stateIntervalEnd = {
  version: 19,
  name: 'state-interval-end',
  sql: `
CREATE INDEX state_interval_end ON state_interval ("end");
`
}
