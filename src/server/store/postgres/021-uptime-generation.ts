// Replaced by migration 022 (a count per host); kept as it ran.
// What changes the uptime list's measurement advances one counter (PostgreSQL, as migrations/021-uptime-generation.ts),
// here a sequence rather than a row: a row would be locked by every collector transaction that opens or ends an
// interval until its commit, and two instances' batches touching the same hosts could then deadlock on it.
// The triggers are deferred to the commit, so that a reader seeing the new value reads the new rows a moment
// later (a reader between the two keeps an old measurement at most Memo's age: api/reports-uptime.ts), and
// those on host and service columns the collector rewrites with every message count only a change.
export const uptimeGeneration = {
  version: 21,
  name: 'uptime-generation',
  sql: `
CREATE SEQUENCE uptime_generation;
CREATE FUNCTION advance_uptime_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('uptime_generation');
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER state_interval_advances_uptime AFTER INSERT OR UPDATE OR DELETE ON state_interval
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION advance_uptime_generation();
CREATE CONSTRAINT TRIGGER service_advances_uptime AFTER INSERT OR DELETE ON service
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION advance_uptime_generation();
CREATE CONSTRAINT TRIGGER host_advances_uptime AFTER INSERT OR DELETE ON host
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION advance_uptime_generation();
CREATE CONSTRAINT TRIGGER service_monitor_advances_uptime AFTER UPDATE OF monitor, name_id ON service
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.monitor IS DISTINCT FROM NEW.monitor OR OLD.name_id IS DISTINCT FROM NEW.name_id)
  EXECUTE FUNCTION advance_uptime_generation();
CREATE CONSTRAINT TRIGGER host_measured_advances_uptime AFTER UPDATE OF hostname, status, created_at ON host
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION advance_uptime_generation();
`
}
