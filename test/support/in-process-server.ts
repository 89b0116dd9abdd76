// The real server (store, HTTP, jobs) started inside the test process on 127.0.0.1 with a fresh data dir.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../src/server/log'
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server'
import { postCollector } from './collector-client'
import { asAgent, fixture } from './fixtures'
import { hostOfAgent } from './hosts'

export interface TestServer extends RunningServer {
  baseUrl: string
  dataDir: string
  /** Registers a host as its agent would: fixture 02's status from agent `agentId`; its host id. */
  addHost(agentId: string, hostname: string): Promise<number>
  stopAndClean(): Promise<void>
}

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-http-'))
  const server = await startServer({
    host: '127.0.0.1', port: 0, dataDir, log: silentLogger,
    initAdmin: { user: 'admin', password: 'adminsecret' },
    initCollector: { user: 'monit', password: 'collect0r' },
    ...opts
  })
  const baseUrl = `http://127.0.0.1:${server.port}`
  return {
    ...server, dataDir, baseUrl,
    async addHost(agentId, hostname) {
      const res = await postCollector(baseUrl, asAgent(fixture('02-status-heartbeat'), agentId, hostname), { auth: 'monit:collect0r' })
      if (res.status !== 200) throw new Error(`the collector refused host ${hostname}: ${res.status} ${res.body}`)
      return hostOfAgent(server.store, agentId)!.id
    },
    async stopAndClean() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
