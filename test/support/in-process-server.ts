// The real server (store, HTTP, jobs) started inside the test process on 127.0.0.1 with a fresh data dir.
import './fast-passwords'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../src/server/log'
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server'
import { loginAs, type ApiClient } from './api-client'
import { postCollector } from './collector-client'
import { asAgent, fixture } from './fixtures'
import { hostOfAgent } from './hosts'
import { databaseFor, dropDatabaseOf } from './test-database'

/** The accounts every test server starts with. */
export const ADMIN = { user: 'admin', password: 'adminsecret' }
export const COLLECTOR = { user: 'monit', password: 'collect0r' }

export interface TestServer extends RunningServer {
  baseUrl: string
  dataDir: string
  /** Posts a message to /collector as the collector user would; throws unless it is stored (200). */
  collect(body: Buffer | string): Promise<void>
  /** Registers a host as its agent would: fixture 02's status from agent `agentId`; its host id. */
  addHost(agentId: string, hostname: string): Promise<number>
  loginAsAdmin(): Promise<ApiClient>
  stopAndClean(): Promise<void>
}

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-http-'))
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    database: databaseFor(dataDir),
    log: silentLogger,
    initAdmin: ADMIN,
    initCollector: COLLECTOR,
    // Every answer of every API test is checked against its endpoint's contract (src/shared/api).
    checkAnswers: true,
    ...opts
  })
  const baseUrl = `http://127.0.0.1:${server.port}`
  const collect = async (body: Buffer | string) => {
    const res = await postCollector(baseUrl, body, { auth: `${COLLECTOR.user}:${COLLECTOR.password}` })
    if (res.status !== 200) throw new Error(`the collector refused a message: ${res.status} ${res.body}`)
  }
  return {
    ...server,
    dataDir,
    baseUrl,
    collect,
    async addHost(agentId, hostname) {
      await collect(asAgent(fixture('02-status-heartbeat'), agentId, hostname))
      return hostOfAgent(server.store, agentId)!.id
    },
    loginAsAdmin: () => loginAs(baseUrl, ADMIN.user, ADMIN.password),
    async stopAndClean() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
      dropDatabaseOf(dataDir)
    }
  }
}
