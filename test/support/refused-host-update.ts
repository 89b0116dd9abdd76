// A fault inside the store, for tests of what a failed message leaves behind: updating the host row
// named `hostname` fails with `message`, after the message's earlier rows were written. Each engine has
// its own trigger language; SQLite's trigger is TEMP (this connection only), PostgreSQL's lives in the
// test's own database.
import type { Store } from '../../src/server/store/store'

export function refuseHostUpdate(store: Store, hostname: string, message: string): void {
  const sql = store.sql.plain
  if (store.sql.engine === 'sqlite') {
    sql.exec(`CREATE TEMP TRIGGER refuse_host_update BEFORE UPDATE ON host WHEN NEW.hostname = '${hostname}'
      BEGIN SELECT RAISE(ABORT, '${message}'); END`)
    return
  }
  sql.exec(`CREATE FUNCTION refuse_host_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.hostname = '${hostname}' THEN RAISE EXCEPTION '${message}'; END IF; RETURN NEW; END $$;
    CREATE TRIGGER refuse_host_update BEFORE UPDATE ON host FOR EACH ROW EXECUTE FUNCTION refuse_host_update()`)
}
