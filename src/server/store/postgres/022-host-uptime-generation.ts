// Each host counts its own changes to what the uptime list measures (PostgreSQL, as
// migrations/022-host-uptime-generation.ts), replacing migration 021's sequence and its deferred triggers.
// The count is written in the writer's transaction, so a reader never sees it ahead of the rows.
export const hostUptimeGeneration = {
  version: 22,
  name: 'host-uptime-generation',
  sql: `
DROP TRIGGER state_interval_advances_uptime ON state_interval;
DROP TRIGGER service_advances_uptime ON service;
DROP TRIGGER host_advances_uptime ON host;
DROP TRIGGER service_monitor_advances_uptime ON service;
DROP TRIGGER host_measured_advances_uptime ON host;
DROP FUNCTION advance_uptime_generation();
DROP SEQUENCE uptime_generation;
ALTER TABLE host ADD COLUMN uptime_generation INTEGER NOT NULL DEFAULT 0;
CREATE FUNCTION host_uptime_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE host SET uptime_generation = uptime_generation + 1
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.host_id ELSE NEW.host_id END;
  RETURN NULL;
END $$;
CREATE TRIGGER state_interval_changes_host_uptime AFTER INSERT OR UPDATE OR DELETE ON state_interval
  FOR EACH ROW EXECUTE FUNCTION host_uptime_changed();
CREATE TRIGGER service_changes_host_uptime AFTER INSERT OR DELETE ON service
  FOR EACH ROW EXECUTE FUNCTION host_uptime_changed();
CREATE TRIGGER service_monitor_changes_host_uptime AFTER UPDATE OF monitor, name_id ON service
  FOR EACH ROW WHEN (OLD.monitor IS DISTINCT FROM NEW.monitor OR OLD.name_id IS DISTINCT FROM NEW.name_id)
  EXECUTE FUNCTION host_uptime_changed();
CREATE FUNCTION host_measured_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.uptime_generation := OLD.uptime_generation + 1;
  RETURN NEW;
END $$;
CREATE TRIGGER host_measured_changes_host_uptime BEFORE UPDATE OF hostname, status, created_at ON host
  FOR EACH ROW WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION host_measured_changed();
`
}
