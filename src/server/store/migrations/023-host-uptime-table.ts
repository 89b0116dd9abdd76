// Migration 022's count of changes lived in the host row, which the collector rewrites with every
// message: on PostgreSQL, a table of 10,000 hosts grows to tens of MB of row versions, and reading every
// host's count (each uptime list request) scanned all of it (30–60 ms; issue 28). The counts now live in a
// narrow table of their own, a row per host added with the host and removed with it, changed only when
// the count moves. Same triggers as 022's otherwise. A writer of intervals holds its host's row already
// (the collector and the watchdog update the host first), so the count's row adds no lock ordering.
const changed = (host: 'NEW' | 'OLD', column: 'host_id' | 'id' = 'host_id') =>
  `UPDATE host_uptime SET generation = generation + 1 WHERE host_id = ${host}.${column};`

export const hostUptimeTable = {
  version: 23,
  name: 'host-uptime-table',
  sql: `
${[
  'state_interval_insert',
  'state_interval_update',
  'state_interval_delete',
  'service_insert',
  'service_delete',
  'service_monitor',
  'host_measured'
]
  .map((name) => `DROP TRIGGER ${name}_changes_host_uptime;`)
  .join('\n')}
CREATE TABLE host_uptime (
  host_id INTEGER PRIMARY KEY REFERENCES host(id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 0
);
INSERT INTO host_uptime (host_id, generation) SELECT id, uptime_generation FROM host;
ALTER TABLE host DROP COLUMN uptime_generation;
CREATE TRIGGER host_insert_adds_host_uptime AFTER INSERT ON host BEGIN INSERT INTO host_uptime (host_id) VALUES (NEW.id); END;
CREATE TRIGGER state_interval_insert_changes_host_uptime AFTER INSERT ON state_interval BEGIN ${changed('NEW')} END;
CREATE TRIGGER state_interval_update_changes_host_uptime AFTER UPDATE ON state_interval BEGIN ${changed('NEW')} END;
CREATE TRIGGER state_interval_delete_changes_host_uptime AFTER DELETE ON state_interval BEGIN ${changed('OLD')} END;
CREATE TRIGGER service_insert_changes_host_uptime AFTER INSERT ON service BEGIN ${changed('NEW')} END;
CREATE TRIGGER service_delete_changes_host_uptime AFTER DELETE ON service BEGIN ${changed('OLD')} END;
CREATE TRIGGER service_monitor_changes_host_uptime AFTER UPDATE OF monitor, name_id ON service
  WHEN OLD.monitor IS NOT NEW.monitor OR OLD.name_id IS NOT NEW.name_id BEGIN ${changed('NEW')} END;
CREATE TRIGGER host_measured_changes_host_uptime AFTER UPDATE OF hostname, status, created_at ON host
  WHEN OLD.hostname IS NOT NEW.hostname OR OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at
  BEGIN ${changed('NEW', 'id')} END;
`
}
