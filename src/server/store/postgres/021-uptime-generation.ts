// What changes the uptime list's measurement bumps one counter (PostgreSQL, as migrations/021-uptime-generation.ts):
// statement triggers on the intervals, row triggers with a WHEN on the columns the collector rewrites with
// every message, so that only a change takes the counter's row lock.
import { UPTIME_GENERATION_KEY } from '../migrations/021-uptime-generation'

export const uptimeGeneration = {
  version: 21,
  name: 'uptime-generation',
  sql: `
INSERT INTO setting (key, value) VALUES ('${UPTIME_GENERATION_KEY}', '0') ON CONFLICT (key) DO NOTHING;
CREATE FUNCTION bump_uptime_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE setting SET value = (value::bigint + 1)::text WHERE key = '${UPTIME_GENERATION_KEY}';
  RETURN NULL;
END $$;
CREATE TRIGGER state_interval_bumps_uptime AFTER INSERT OR UPDATE OR DELETE ON state_interval
  FOR EACH STATEMENT EXECUTE FUNCTION bump_uptime_generation();
CREATE TRIGGER service_bumps_uptime AFTER INSERT OR DELETE ON service
  FOR EACH STATEMENT EXECUTE FUNCTION bump_uptime_generation();
CREATE TRIGGER host_bumps_uptime AFTER INSERT OR DELETE ON host
  FOR EACH STATEMENT EXECUTE FUNCTION bump_uptime_generation();
CREATE TRIGGER service_monitor_bumps_uptime AFTER UPDATE OF monitor, name_id ON service FOR EACH ROW
  WHEN (OLD.monitor IS DISTINCT FROM NEW.monitor OR OLD.name_id IS DISTINCT FROM NEW.name_id)
  EXECUTE FUNCTION bump_uptime_generation();
CREATE TRIGGER host_measured_bumps_uptime AFTER UPDATE OF hostname, status, created_at ON host FOR EACH ROW
  WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION bump_uptime_generation();
`
}
