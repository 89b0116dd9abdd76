// Alerting configuration (issue 13): channels, rules and mutes, edited through admin/alerts/*. The
// delivery side (outbox, notifications, delivery log) is migration 007.
export const alertConfig = {
  version: 6,
  name: 'alert-config',
  sql: `
CREATE TABLE alert_channel (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  -- email, webhook, slack, discord, ntfy, gotify, telegram, program, jabber, desktop
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  -- JSON of the type's settings (alerting/channel.ts); its secret fields sealed by the secret box
  settings TEXT NOT NULL,
  -- null: the type's default template (alerting/templates.ts)
  subject_template TEXT,
  body_template TEXT,
  created_at INTEGER NOT NULL
);

CREATE TABLE alert_rule (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL DEFAULT 1,
  -- a glob on the service name ('*', '?'); '' matches every service
  service_pattern TEXT NOT NULL DEFAULT '',
  -- event type bits as in the API's eventtype bitmap; 0 matches every type
  event_types INTEGER NOT NULL DEFAULT 0,
  -- bits of the states that match: 1 failed, 2 changed, 4 succeeded
  states INTEGER NOT NULL DEFAULT 7,
  -- 1: also the host's heartbeat (stopped reporting / reports again)
  heartbeat INTEGER NOT NULL DEFAULT 1,
  group_wait_sec INTEGER NOT NULL DEFAULT 30,
  -- 0: no reminders
  reminder_min INTEGER NOT NULL DEFAULT 0,
  recovery INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE TABLE alert_rule_channel (
  rule_id INTEGER NOT NULL REFERENCES alert_rule (id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES alert_channel (id) ON DELETE CASCADE,
  PRIMARY KEY (rule_id, channel_id)
) WITHOUT ROWID;
-- No host and no group: the rule matches every host.
CREATE TABLE alert_rule_host (
  rule_id INTEGER NOT NULL REFERENCES alert_rule (id) ON DELETE CASCADE,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  PRIMARY KEY (rule_id, host_id)
) WITHOUT ROWID;
CREATE TABLE alert_rule_group (
  rule_id INTEGER NOT NULL REFERENCES alert_rule (id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES host_group (id) ON DELETE CASCADE,
  PRIMARY KEY (rule_id, group_id)
) WITHOUT ROWID;
-- No service type: every type.
CREATE TABLE alert_rule_service_type (
  rule_id INTEGER NOT NULL REFERENCES alert_rule (id) ON DELETE CASCADE,
  service_type INTEGER NOT NULL,
  PRIMARY KEY (rule_id, service_type)
) WITHOUT ROWID;

-- Maintenance: a host, or one of its services, produces no alert until \`until\`.
CREATE TABLE alert_mute (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  -- null: the whole host
  service_name_id INTEGER REFERENCES service_name (id),
  until INTEGER NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX alert_mute_host ON alert_mute (host_id, until);
`
}
