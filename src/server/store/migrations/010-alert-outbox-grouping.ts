// What alerting costs the collector and the delivery job, cut (issue 13, npm run bench -- alerting):
// - one index for the outbox's two ways in by notification: the ungrouped rows of a channel
//   (notification_id NULL, by channel and due time: the grouping) and the rows of a notification (the
//   delivery log, the send, the cascade when a notification is pruned). Two indexes made every alert row
//   the collector writes cost two index insertions;
// - a notification keeps its summary, link and number of alerts, not a copy of its alerts: the send builds
//   them from its rows (frozen, and never regrouped), so a storm's alerts are not written twice.
export const alertOutboxGrouping = {
  version: 10,
  name: 'alert-outbox-grouping',
  sql: `
DROP INDEX alert_outbox_pending;
DROP INDEX alert_outbox_notification;
CREATE INDEX alert_outbox_grouping ON alert_outbox (notification_id, channel_id, due_at);
ALTER TABLE alert_notification ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE alert_notification ADD COLUMN link TEXT NOT NULL DEFAULT '';
ALTER TABLE alert_notification ADD COLUMN alert_count INTEGER NOT NULL DEFAULT 0;
UPDATE alert_notification SET summary = COALESCE(json_extract(payload, '$.summary'), ''),
  link = COALESCE(json_extract(payload, '$.link'), ''), alert_count = COALESCE(json_array_length(payload, '$.alerts'), 0);
ALTER TABLE alert_notification DROP COLUMN payload;
`
}
