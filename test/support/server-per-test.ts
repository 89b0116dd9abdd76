// A fresh real server for each test of a file, with its administrator logged in; stopped and its data
// removed after the test.
import { afterEach, beforeEach } from 'vitest'
import type { ServerOptions } from '../../src/server/server'
import type { ApiClient } from './api-client'
import { startTestServer, type TestServer } from './in-process-server'

export interface StartedServer {
  server: TestServer
  admin: ApiClient
}

/** `setup` runs once the server is up, before each test: typically it keeps `server` and `admin` and adds hosts. */
export function serverForEachTest(setup: (started: StartedServer) => void | Promise<void>, opts: Partial<ServerOptions> = {}): void {
  let server: TestServer | undefined
  beforeEach(async () => {
    server = await startTestServer(opts)
    await setup({ server, admin: await server.loginAsAdmin() })
  })
  afterEach(async () => {
    await server?.stopAndClean()
  })
}
