// The uptime list measures every host at once (issue 28): it reads the down intervals overlapping a range
// for all hosts in one query. An interval overlaps [from, to) when it ends after `from` (or is open) and
// starts before `to`; this index makes "ends after from" a range scan instead of a scan of all history,
// and covers the columns read. The services' indexes give what the list reads of them (which exist, per
// host and name; the few not monitored) without reading their rows, wide with their latest statistics,
// and without monitor as a column: the collector sets it with every message.
export const stateIntervalEnd = {
  version: 19,
  name: 'state-interval-end',
  sql: `
CREATE INDEX state_interval_end ON state_interval ("end", service_name_id, host_id, start);
CREATE INDEX service_host_name_id ON service (host_id, name_id);
CREATE INDEX service_unmonitored ON service (host_id, name_id) WHERE monitor = 0;
`
}
