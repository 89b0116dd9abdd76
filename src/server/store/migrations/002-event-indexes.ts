// Indexes for reports/events/list (issue 4). A filtered page and its count read one index range, newest
// first, instead of walking the whole date index: per service name (servicenameid; servicegroupid uses
// event_dedup through its host), per event class (eventtype), and the few active errors (active=1/2).
// The partial indexes hold only active rows, so they cost the collector next to nothing; the two full ones
// append at the end of their ranges (date grows), which keeps inserts cheap.
export const eventIndexes = {
  version: 2,
  name: 'event-indexes',
  sql: `
CREATE INDEX event_service_date ON event (service_name_id, date);
CREATE INDEX event_class_date ON event (class, date);
CREATE INDEX event_active_date ON event (date) WHERE active = 1;
CREATE INDEX event_open_date ON event (date) WHERE active = 1 AND dismissed = 0;
`
}
