// One index for the outbox's two ways in by notification (issue 13): the ungrouped rows of a channel
// (notification_id NULL, by channel and due time: the delivery job's grouping) and the rows of a
// notification (the delivery log, and the cascade when a notification is pruned). Two indexes made
// every alert row the collector writes cost two index insertions (npm run bench -- alerting).
export const alertOutboxGrouping = {
  version: 10,
  name: 'alert-outbox-grouping',
  sql: `
DROP INDEX alert_outbox_pending;
DROP INDEX alert_outbox_notification;
CREATE INDEX alert_outbox_grouping ON alert_outbox (notification_id, channel_id, due_at);
`
}
