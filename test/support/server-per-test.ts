// One real server per test file, with its administrator logged in afresh for each test. Before each
// test the store's tables are put back as they were once the server had started (its accounts, roles
// and settings), and what the server keeps in memory about them is made to read them again: starting a
// server per test cost some 0.5-1 s each (its ingest thread), most of the admin tests' time.
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { LoginThrottle } from '../../src/server/auth/login-throttle'
import type { ServerOptions } from '../../src/server/server'
import type { TableShape } from '../../src/server/store/catalog'
import type { Store } from '../../src/server/store/store'
import { TableRows, type TableRow } from '../../src/server/store/table-rows'
import { copyOrder } from '../../src/server/tools/migrate-database'
import type { ApiClient } from './api-client'
import { startTestServer, type TestServer } from './in-process-server'

export interface StartedServer {
  server: TestServer
  admin: ApiClient
}

/** Counters in `setting` that caches compare against (permission and alert configuration generations): never put back. */
const GENERATION_KEYS = "key LIKE '%\\_generation' ESCAPE '\\'"

/** `setup` runs before each test once the tables are reset: typically it keeps `server` and `admin` and adds hosts. */
export function serverForEachTest(setup: (started: StartedServer) => void | Promise<void>, opts: Partial<ServerOptions> = {}): void {
  let server: TestServer
  let initial: TableSnapshot
  // Failed logins of one test must not lock an account in the next: each test starts a window later.
  let throttleSec = 0
  const loginThrottle = new LoginThrottle({ now: () => throttleSec })
  beforeAll(async () => {
    server = await startTestServer({ loginThrottle, ...opts })
    initial = snapshot(server.store)
  })
  beforeEach(async () => {
    restore(server.store, initial)
    throttleSec += loginThrottle.windowSec + 1
    await setup({ server, admin: await server.loginAsAdmin() })
  })
  afterAll(async () => {
    await server?.stopAndClean()
  })
}

interface TableSnapshot {
  /** Parents before children. */
  tables: { shape: TableShape; rows: TableRow[] }[]
}

function snapshot(store: Store): TableSnapshot {
  const rows = new TableRows(store.sql)
  return { tables: copyOrder(rows.tables()).map((shape) => ({ shape, rows: rows.batch(shape, undefined, 1_000_000) })) }
}

/**
 * Every table back to the snapshot, ids included; the id generators go on from where they were, so no id
 * is used twice (the ingest thread's caches are by host id). The generations go up instead of back, and
 * an empty user change bumps the permission generation: cached principals and credentials are read again.
 */
function restore(store: Store, initial: TableSnapshot): void {
  const rows = new TableRows(store.sql)
  store.sql.transaction(() => {
    for (const { shape } of [...initial.tables].reverse()) {
      if (shape.name === 'setting') store.sql.execute(`DELETE FROM setting WHERE NOT (${GENERATION_KEYS})`)
      else rows.deleteAll(shape.name)
    }
    for (const { shape, rows: saved } of initial.tables) {
      if (shape.name !== 'setting') rows.insert(shape, saved)
      else
        rows.insert(
          shape,
          saved.filter((row) => !String(row.key).endsWith('_generation'))
        )
    }
    store.sql.execute(`UPDATE setting SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT) WHERE ${GENERATION_KEYS}`)
  })
  store.users.update(store.users.findByName('admin')!.id, {})
}
