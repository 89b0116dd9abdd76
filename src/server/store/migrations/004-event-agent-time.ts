// Events of one service in agent time (issue 12). Queued events arrive out of order, so the collector
// reads a service's events around an event's agent time: the one before it (is it a re-send after a
// restart?), a recovery after it (is a late failure still active?) and everything after it (down-time
// intervals). event_dedup cannot serve those reads: its state column sits before the time.
export const eventAgentTime = {
  version: 4,
  name: 'event-agent-time',
  sql: `
CREATE INDEX event_service_time ON event (host_id, service_name_id, collected_usec);
`
}
