// What the fleet-size HTTP benchmarks share (uptime-list.ts, forecasts.ts): a fresh data folder filled
// with `hosts` hosts (status.ts populate), more rows written by the benchmark (`prepare`, given the
// database's location), then the built server on it as users run it, an administrator logged in, and
// one keep-alive connection; all of it stopped and removed whatever happens.
import { mkdtempSync } from 'node:fs'
import { Agent as HttpAgent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loginAs } from '../test/support/api-client'
import { removeDir, startBuiltServer } from '../test/support/built-server'
import { populate } from './status'
import type { Deadline, Target } from './support'

const ADMIN = { user: 'admin', password: 'benchadmin' }
const DATABASE_FILE = 'overseer.sqlite'

export interface FleetServer<P> {
  /** What `prepare` answered (e.g. how many rows it wrote). */
  prepared: P
  target: Target
  keepAlive: HttpAgent
  /** The database's location, for a benchmark writing beside the server. */
  location: string
}

export async function onFleetServer<P, R>(
  o: { hosts: number; deadline: Deadline; database?: string; prefix: string; prepare: (location: string) => P },
  measure: (fleet: FleetServer<P>) => Promise<R>
): Promise<R> {
  const dataDir = mkdtempSync(join(tmpdir(), o.prefix))
  try {
    populate(dataDir, o.hosts, o.deadline, o.database)
    const location = o.database ?? join(dataDir, DATABASE_FILE)
    const prepared = o.prepare(location)
    // A minute to start, as a busy machine may need after the filling.
    const server = await startBuiltServer({
      dataDir,
      database: o.database,
      args: ['--init-admin', `${ADMIN.user}:${ADMIN.password}`],
      timeoutMs: 60_000
    })
    const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 1 })
    try {
      const client = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
      if (!client.cookie) throw new Error('login gave no session cookie')
      return await measure({ prepared, target: { port: server.port, cookie: client.cookie, deadline: o.deadline }, keepAlive, location })
    } finally {
      keepAlive.destroy()
      const code = await server.stop()
      if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    }
  } finally {
    removeDir(dataDir)
  }
}
