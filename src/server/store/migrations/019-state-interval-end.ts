// The uptime list measures every host at once (issue 28): it reads the down intervals overlapping a range
// for all hosts in one query. An interval overlaps [from, to) when it ends after `from` (or is open) and
// starts before `to`; this index makes "ends after from" a range scan instead of a scan of all history.
export const stateIntervalEnd = {
  version: 19,
  name: 'state-interval-end',
  sql: `
CREATE INDEX state_interval_end ON state_interval ("end");
`
}
