// The real server (store, HTTP, jobs) started inside the test process on 127.0.0.1 with a fresh data dir.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../src/server/log'
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server'

export interface TestServer extends RunningServer {
  baseUrl: string
  dataDir: string
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
  return {
    ...server, dataDir, baseUrl: `http://127.0.0.1:${server.port}`,
    async stopAndClean() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
