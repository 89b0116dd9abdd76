// Replaced by migration 022 (a count per host); kept as it ran.
// The uptime list (issue 28) keeps its last measurement of every host in memory and serves it again while
// nothing it was measured from has changed: reading a week's down intervals of 10,000 hosts takes longer
// than the answer may. Triggers bump one counter on every change to what the measurement reads — the
// intervals, which services exist and are monitored, the hosts' names, status and first report — so no
// writer (the collector on another thread or instance, an import, a cascade from a deleted host) can
// forget to. The collector rewrites `monitor`, `hostname` and `status` with every message: only a change counts.
import { bumpSettingCounter } from './009-alert-config-generation'

export const UPTIME_GENERATION_KEY = 'uptime_generation'
const bump = bumpSettingCounter(UPTIME_GENERATION_KEY)

export const uptimeGeneration = {
  version: 21,
  name: 'uptime-generation',
  sql: `
INSERT INTO setting (key, value) VALUES ('${UPTIME_GENERATION_KEY}', '0') ON CONFLICT (key) DO NOTHING;
${['INSERT', 'UPDATE', 'DELETE']
  .map((op) => `CREATE TRIGGER state_interval_${op.toLowerCase()}_bumps_uptime AFTER ${op} ON state_interval BEGIN ${bump} END;`)
  .join('\n')}
${['INSERT', 'DELETE']
  .flatMap((op) =>
    ['service', 'host'].map(
      (table) => `CREATE TRIGGER ${table}_${op.toLowerCase()}_bumps_uptime AFTER ${op} ON ${table} BEGIN ${bump} END;`
    )
  )
  .join('\n')}
CREATE TRIGGER service_monitor_bumps_uptime AFTER UPDATE OF monitor, name_id ON service
  WHEN OLD.monitor IS NOT NEW.monitor OR OLD.name_id IS NOT NEW.name_id BEGIN ${bump} END;
CREATE TRIGGER host_measured_bumps_uptime AFTER UPDATE OF hostname, status, created_at ON host
  WHEN OLD.hostname IS NOT NEW.hostname OR OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at BEGIN ${bump} END;
`
}
