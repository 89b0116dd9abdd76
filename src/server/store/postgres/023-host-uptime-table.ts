// The hosts' counts of changes in a narrow table of their own (PostgreSQL, as migrations/023-host-uptime-table.ts):
// reading them no longer scans the host table, whose rows the collector rewrites with every message.
export const hostUptimeTable = {
  version: 23,
  name: 'host-uptime-table',
  sql: `
DROP TRIGGER host_measured_changes_host_uptime ON host;
DROP FUNCTION host_measured_changed();
CREATE TABLE host_uptime (
  host_id BIGINT PRIMARY KEY REFERENCES host(id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 0
);
INSERT INTO host_uptime (host_id, generation) SELECT id, uptime_generation FROM host;
ALTER TABLE host DROP COLUMN uptime_generation;
CREATE OR REPLACE FUNCTION host_uptime_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE host_uptime SET generation = generation + 1
    WHERE host_id = CASE WHEN TG_OP = 'DELETE' THEN OLD.host_id ELSE NEW.host_id END;
  RETURN NULL;
END $$;
CREATE FUNCTION host_uptime_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO host_uptime (host_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER host_insert_adds_host_uptime AFTER INSERT ON host FOR EACH ROW EXECUTE FUNCTION host_uptime_added();
CREATE FUNCTION host_measured_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE host_uptime SET generation = generation + 1 WHERE host_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER host_measured_changes_host_uptime AFTER UPDATE OF hostname, status, created_at ON host
  FOR EACH ROW WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION host_measured_changed();
`
}
