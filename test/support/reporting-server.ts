// The built server on PostgreSQL with two real Monit 5.33 agents reporting to it (1 s poll: skew × poll =
// 3 s), logged in as its administrator, and a connection of the test's own to its database: what the
// tests of PostgreSQL in trouble under a running server start from.
import { expect } from 'vitest'
import { loginAs, type ApiClient } from './api-client'
import { postCollector } from './collector-client'
import { startCollectorRecorder, type CollectorRecorder } from './collector-recorder'
import { asAgent, fixture } from './fixtures'
import { removeDir, startBuiltServer, type BuiltServer } from './built-server'
import { startAgents, type AgentFleet } from './monit-agents'
import { databaseFor } from './test-database'
import { waitFor } from './wait'
import { SyncConnection } from '../../src/server/store/postgres/sync-connection'

/** The collector's user:password, for posting as the agents do. */
export const COLLECTOR = 'agents:s3cret'
export const ADMIN = { user: 'admin', password: 'adminsecret' }

export interface ReportingServer {
  server: BuiltServer
  /** The agents' messages, relayed to the collector, with the server's answers. */
  recorder: CollectorRecorder
  fleet: AgentFleet
  admin: ApiClient
  /** A number from one row of the server's database (`n`). */
  count(sql: string, ...values: unknown[]): number
  /** Moved forward by each stored report (the time its host is due again). */
  lastDeadline(): number
  /** Posts a fixture to the collector as the agent `agentId` would, and expects it refused with 503, `Retry-After` and an error matching `error`. */
  expectCollectorRefused(fixtureName: string, agentId: string, retryAfterSec: number, error: RegExp): Promise<void>
  close(): Promise<void>
}

/**
 * `database`: a database of the test's own; absent, the suite's. `observeAt`: where the test's own connection
 * reaches it, when the server's way can be cut; absent, the same. `args`: more server flags.
 */
export async function startReportingServer(
  opts: { database?: string; observeAt?: string; args?: string[] } = {}
): Promise<ReportingServer> {
  const server = await startBuiltServer({
    database: opts.database,
    args: ['--init-collector', COLLECTOR, '--init-admin', `${ADMIN.user}:${ADMIN.password}`, ...(opts.args ?? [])]
  })
  const db = new SyncConnection(opts.observeAt ?? opts.database ?? databaseFor(server.dataDir)!)
  let fleet: AgentFleet | undefined
  let recorder: CollectorRecorder | undefined
  const count = (sql: string, ...values: unknown[]) => Number(db.query(sql, values).rows[0].n)
  const close = async () => {
    await fleet?.shutdown()
    await recorder?.close()
    await server.stop()
    db.close()
    removeDir(server.dataDir)
  }
  try {
    recorder = await startCollectorRecorder(server.port)
    fleet = await startAgents({ collectorUrl: `http://${COLLECTOR}@127.0.0.1:${recorder.port}/collector`, count: 2 })
    await waitFor('both agents reporting', () => count('SELECT COUNT(*) AS n FROM host WHERE heartbeat = 1') === 2, 15_000)
    const admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    const expectCollectorRefused = async (fixtureName: string, agentId: string, retryAfterSec: number, error: RegExp) => {
      const message = await postCollector(server.baseUrl, asAgent(fixture(fixtureName), agentId), { auth: COLLECTOR })
      expect(message.status).toBe(503)
      expect(message.headers['retry-after']).toBe(String(retryAfterSec))
      expect((JSON.parse(message.body) as { error: string }).error).toMatch(error)
    }
    const lastDeadline = () => count('SELECT MAX(heartbeat_deadline_ms) AS n FROM host')
    return { server, recorder, fleet, admin, count, lastDeadline, expectCollectorRefused, close }
  } catch (err) {
    await close()
    throw err
  }
}
