// Migration 021's one counter made any change anywhere in the fleet measure every host again (issue 28:
// 160–590 ms at 10,000 hosts, for every answer while something somewhere changes). Each host now counts
// its own changes: a write to its intervals, to which of its services exist or are monitored, and to its
// own name, status and first report (the collector rewrites those with every message: only a change
// counts). The uptime list measures again only the hosts whose count moved, and reads the hosts again only
// when the fleet's sum of counts, its size or its newest id moved (api/reports-uptime.ts). The count is a
// column of the host, changed in the writer's transaction: every writer of intervals (the collector, the
// watchdog) holds that row already, so no lock is added.
import { UPTIME_GENERATION_KEY } from './021-uptime-generation'

const changed = (host: 'NEW' | 'OLD') => `UPDATE host SET uptime_generation = uptime_generation + 1 WHERE id = ${host}.host_id;`

export const hostUptimeGeneration = {
  version: 22,
  name: 'host-uptime-generation',
  sql: `
${[
  'state_interval_insert',
  'state_interval_update',
  'state_interval_delete',
  'service_insert',
  'service_delete',
  'host_insert',
  'host_delete',
  'service_monitor',
  'host_measured'
]
  .map((name) => `DROP TRIGGER ${name}_bumps_uptime;`)
  .join('\n')}
DELETE FROM setting WHERE key = '${UPTIME_GENERATION_KEY}';
ALTER TABLE host ADD COLUMN uptime_generation INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER state_interval_insert_changes_host_uptime AFTER INSERT ON state_interval BEGIN ${changed('NEW')} END;
CREATE TRIGGER state_interval_update_changes_host_uptime AFTER UPDATE ON state_interval BEGIN ${changed('NEW')} END;
CREATE TRIGGER state_interval_delete_changes_host_uptime AFTER DELETE ON state_interval BEGIN ${changed('OLD')} END;
CREATE TRIGGER service_insert_changes_host_uptime AFTER INSERT ON service BEGIN ${changed('NEW')} END;
CREATE TRIGGER service_delete_changes_host_uptime AFTER DELETE ON service BEGIN ${changed('OLD')} END;
CREATE TRIGGER service_monitor_changes_host_uptime AFTER UPDATE OF monitor, name_id ON service
  WHEN OLD.monitor IS NOT NEW.monitor OR OLD.name_id IS NOT NEW.name_id BEGIN ${changed('NEW')} END;
CREATE TRIGGER host_measured_changes_host_uptime AFTER UPDATE OF hostname, status, created_at ON host
  WHEN OLD.hostname IS NOT NEW.hostname OR OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at
  BEGIN UPDATE host SET uptime_generation = uptime_generation + 1 WHERE id = NEW.id; END;
`
}
