// The alert outbox (issue 13, docs/alerting.md "The outbox"): what rules matched is written in the same
// transaction as the event, so a crash between the failure and the send loses nothing; the delivery
// job groups the due rows of a channel into one notification and sends it with retries.
export const alertOutbox = {
  version: 7,
  name: 'alert-outbox',
  sql: `
CREATE TABLE alert_notification (
  id INTEGER PRIMARY KEY,
  -- stable across retries and restarts (AlertNotification.id): receivers de-duplicate on it
  uid TEXT NOT NULL UNIQUE,
  channel_id INTEGER NOT NULL REFERENCES alert_channel (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  -- 'pending' (to send, or to retry at next_attempt_at), 'delivered', 'failed' (gave up)
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT,
  delivered_at INTEGER,
  -- the AlertNotification as sent (JSON)
  payload TEXT NOT NULL,
  -- what the channel reported (a program's output, a server's answer), for the delivery log
  log TEXT
);
CREATE INDEX alert_notification_due ON alert_notification (next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_notification_created ON alert_notification (created_at);

-- One row per event, matching rule and channel.
CREATE TABLE alert_outbox (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER NOT NULL REFERENCES alert_channel (id) ON DELETE CASCADE,
  rule_id INTEGER REFERENCES alert_rule (id) ON DELETE SET NULL,
  event_id INTEGER REFERENCES event (id) ON DELETE SET NULL,
  -- 'alert', 'recovery' or 'reminder'
  kind TEXT NOT NULL,
  -- the AlertItem (JSON, link relative to the console), frozen when matched: a host or event deleted
  -- meanwhile still gets its alert
  item TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- created_at + the rule's group wait: rows of one channel due by now are sent together
  due_at INTEGER NOT NULL,
  -- set when grouped into a notification
  notification_id INTEGER REFERENCES alert_notification (id) ON DELETE CASCADE
);
CREATE INDEX alert_outbox_pending ON alert_outbox (channel_id, due_at) WHERE notification_id IS NULL;
CREATE INDEX alert_outbox_event ON alert_outbox (event_id, rule_id, channel_id);
CREATE INDEX alert_outbox_notification ON alert_outbox (notification_id);
`
}
