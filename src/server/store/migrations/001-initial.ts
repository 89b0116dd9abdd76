// Initial schema. Never edit a released migration: add a new numbered file instead.
// AUTOINCREMENT on ids that clients keep (hosts, services, users, roles, groups, events): never reused.
export const initial = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE host (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL UNIQUE,
  hostname TEXT NOT NULL,
  keepname INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL DEFAULT 0,
  inactive_since INTEGER,
  ipaddr_in TEXT NOT NULL DEFAULT '',
  port_in INTEGER NOT NULL DEFAULT -1,
  ssl_in INTEGER NOT NULL DEFAULT 0,
  unix_socket TEXT,
  ipaddr_out TEXT NOT NULL DEFAULT '',
  port_out INTEGER NOT NULL DEFAULT -1,
  ssl_out INTEGER NOT NULL DEFAULT -1,
  agent_user TEXT NOT NULL DEFAULT '',
  agent_password TEXT NOT NULL DEFAULT '',
  credentials_pinned INTEGER NOT NULL DEFAULT 0,
  skew INTEGER,
  poll INTEGER NOT NULL DEFAULT 0,
  start_delay INTEGER NOT NULL DEFAULT 0,
  agent_version TEXT NOT NULL DEFAULT '',
  incarnation INTEGER NOT NULL DEFAULT 0,
  agent_uptime INTEGER NOT NULL DEFAULT 0,
  control_file TEXT NOT NULL DEFAULT '',
  platform_name TEXT NOT NULL DEFAULT '',
  platform_release TEXT NOT NULL DEFAULT '',
  platform_version TEXT NOT NULL DEFAULT '',
  platform_machine TEXT NOT NULL DEFAULT '',
  cpu_count INTEGER NOT NULL DEFAULT 0,
  memory_kb INTEGER NOT NULL DEFAULT 0,
  swap_kb INTEGER NOT NULL DEFAULT 0,
  last_modified INTEGER NOT NULL DEFAULT 0,
  snapshot_usec INTEGER NOT NULL DEFAULT 0,
  heartbeat INTEGER NOT NULL DEFAULT 1,
  heartbeat_deadline_ms INTEGER,
  services_total INTEGER NOT NULL DEFAULT 0,
  services_failed INTEGER NOT NULL DEFAULT 0,
  services_changed INTEGER NOT NULL DEFAULT 0,
  services_unmonitored INTEGER NOT NULL DEFAULT 0,
  led INTEGER NOT NULL DEFAULT 3,
  status_text TEXT NOT NULL DEFAULT '',
  cpu REAL,
  mem REAL,
  events_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX host_watch ON host (heartbeat_deadline_ms) WHERE heartbeat = 1 AND status = 0;
CREATE INDEX host_led_name ON host (led, hostname);
CREATE INDEX host_name ON host (hostname);

CREATE TABLE service_name (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE service (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  name_id INTEGER NOT NULL REFERENCES service_name (id),
  name TEXT NOT NULL,
  type INTEGER NOT NULL,
  position INTEGER NOT NULL,
  collected_usec INTEGER NOT NULL,
  status INTEGER NOT NULL,
  status_hint INTEGER NOT NULL,
  monitor INTEGER NOT NULL,
  monitor_mode INTEGER NOT NULL,
  on_reboot INTEGER NOT NULL,
  pending_action INTEGER NOT NULL,
  every TEXT,
  led INTEGER NOT NULL,
  status_text TEXT NOT NULL,
  -- Latest statistics as JSON [[type, descriptor, value, text|null], …] in agent order:
  -- one write per changed service instead of one per figure, on the collector's hot path.
  statistics TEXT NOT NULL DEFAULT '[]',
  events_count INTEGER NOT NULL DEFAULT 0,
  UNIQUE (host_id, name)
);

-- Every statistic a service has reported, with a stable id: API clients see it, and history is keyed by it.
CREATE TABLE statistic (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  service_id INTEGER NOT NULL REFERENCES service (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  descriptor TEXT NOT NULL,
  UNIQUE (service_id, type, descriptor)
);

CREATE TABLE service_group (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  UNIQUE (host_id, name)
);
CREATE TABLE service_group_member (
  group_id INTEGER NOT NULL REFERENCES service_group (id) ON DELETE CASCADE,
  service_name_id INTEGER NOT NULL REFERENCES service_name (id),
  PRIMARY KEY (group_id, service_name_id)
) WITHOUT ROWID;

CREATE TABLE event (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  service_name_id INTEGER NOT NULL REFERENCES service_name (id),
  service_name TEXT NOT NULL,
  service_type INTEGER NOT NULL,
  class INTEGER NOT NULL,
  state INTEGER NOT NULL,
  action INTEGER NOT NULL,
  message TEXT NOT NULL,
  collected_usec INTEGER NOT NULL,
  date INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 0,
  dismissed INTEGER NOT NULL DEFAULT 0,
  has_note INTEGER NOT NULL DEFAULT 0
);
-- Queue replays and concurrent posts of one event collapse onto this key (agent protocol §3.6).
CREATE UNIQUE INDEX event_dedup ON event (host_id, service_name_id, class, state, collected_usec);
CREATE INDEX event_date ON event (date);
CREATE INDEX event_host_date ON event (host_id, date);
CREATE INDEX event_active ON event (host_id, service_name_id, class) WHERE active = 1;

CREATE TABLE event_state (
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  service_name TEXT NOT NULL,
  class INTEGER NOT NULL,
  state INTEGER NOT NULL,
  collected_usec INTEGER NOT NULL,
  PRIMARY KEY (host_id, service_name, class)
) WITHOUT ROWID;

CREATE TABLE event_note (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL REFERENCES event (id) ON DELETE CASCADE,
  date INTEGER NOT NULL,
  user_id INTEGER REFERENCES user (id) ON DELETE SET NULL,
  uname TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX event_note_event ON event_note (event_id);

CREATE TABLE state_interval (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  service_name_id INTEGER REFERENCES service_name (id),
  start INTEGER NOT NULL,
  "end" INTEGER
);
CREATE INDEX state_interval_host ON state_interval (host_id, service_name_id, start);
CREATE INDEX state_interval_open ON state_interval (host_id, service_name_id) WHERE "end" IS NULL;

CREATE TABLE user (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uname TEXT NOT NULL UNIQUE,
  password_salt TEXT NOT NULL,
  password_sha256 TEXT NOT NULL,
  password_md5 TEXT NOT NULL,
  fullname TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  mobile TEXT NOT NULL DEFAULT '',
  imname TEXT NOT NULL DEFAULT '',
  imtype TEXT NOT NULL DEFAULT '',
  image TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);

CREATE TABLE role (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  admin INTEGER NOT NULL,
  active INTEGER NOT NULL,
  buildin INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE role_row (
  id INTEGER PRIMARY KEY,
  role_id INTEGER NOT NULL REFERENCES role (id) ON DELETE CASCADE,
  permission INTEGER NOT NULL,
  position INTEGER NOT NULL
);
CREATE TABLE role_row_host (
  row_id INTEGER NOT NULL REFERENCES role_row (id) ON DELETE CASCADE,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  PRIMARY KEY (row_id, host_id)
) WITHOUT ROWID;
CREATE TABLE user_role (
  user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
  role_id INTEGER NOT NULL REFERENCES role (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
) WITHOUT ROWID;

CREATE TABLE host_group (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE host_group_member (
  group_id INTEGER NOT NULL REFERENCES host_group (id) ON DELETE CASCADE,
  host_id INTEGER NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, host_id)
) WITHOUT ROWID;
CREATE TABLE role_row_group (
  row_id INTEGER NOT NULL REFERENCES role_row (id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES host_group (id) ON DELETE CASCADE,
  PRIMARY KEY (row_id, group_id)
) WITHOUT ROWID;

CREATE TABLE session (
  id TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES user (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  csrf_protection INTEGER NOT NULL DEFAULT 1,
  attributes TEXT NOT NULL DEFAULT '{}',
  saved_url TEXT,
  created_at INTEGER NOT NULL,
  last_access INTEGER NOT NULL
);
CREATE INDEX session_last_access ON session (last_access);

CREATE TABLE setting (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Built-in roles. A role row with no hosts and no host groups applies to every host, including hosts
-- not registered yet: that is how the collector role admits new agents.
INSERT INTO role (id, name, description, admin, active, buildin)
  VALUES (1, 'Administrator', 'Full access to every host and to administration', 1, 1, 1);
INSERT INTO role (id, name, description, admin, active, buildin)
  VALUES (2, 'Collector', 'Monit agents: may post to /collector for every host', 0, 1, 1);
INSERT INTO role_row (id, role_id, permission, position) VALUES (1, 2, 1, 0);
-- The default role of users created through api/1, which has no roles: see and act on every host.
INSERT INTO role (id, name, description, admin, active, buildin)
  VALUES (3, 'User', 'Views every host and runs service actions', 0, 1, 0);
INSERT INTO role_row (id, role_id, permission, position) VALUES (2, 3, 6, 0);
`
}
