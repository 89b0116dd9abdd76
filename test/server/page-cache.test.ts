// The SQLite page cache setting (--cache-size) reaches both of the server's connections: the HTTP
// thread's, read back and logged at start, and the ingest thread's, read back and logged when the first
// agent message starts that thread.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PAGE_CACHE_MIB } from '../../src/server/store/database'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { capturedLog } from '../support/captured-log'
import { postCollector } from '../support/collector-client'
import { sqliteOf, testEngine } from '../support/test-database'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { asAgent, fixture } from '../support/fixtures'

const cacheLines = (lines: readonly string[]) => lines.filter((l) => l.includes('SQLite page cache'))
const heartbeat = () => asAgent(fixture('02-status-heartbeat'), `ca${'0'.repeat(30)}`, 'cached')

let running: TestServer | undefined
let built: BuiltServer | undefined
afterEach(async () => {
  await running?.stopAndClean()
  running = undefined
  if (built) {
    await built.kill()
    removeDir(built.dataDir)
    built = undefined
  }
})

// A setting of SQLite's connections: PostgreSQL's cache is its server's (shared_buffers).
describe.skipIf(testEngine === 'postgres')('the SQLite page cache', () => {
  it("is the size asked for on both connections, the collector's from its first message on", async () => {
    const captured = capturedLog()
    running = await startTestServer({ cacheSizeMib: 3, log: captured.log })
    // Negative: KiB rather than pages.
    expect(sqliteOf(running.store).pragma('cache_size', { simple: true })).toBe(-3 * 1024)
    // No agent yet: no ingest thread, no second connection.
    expect(cacheLines(captured.out())).toEqual([expect.stringMatching(/SQLite page cache: 3 MiB for the HTTP thread$/)])
    await running.collect(heartbeat())
    expect(cacheLines(captured.out())).toEqual([
      expect.stringMatching(/SQLite page cache: 3 MiB for the HTTP thread$/),
      expect.stringMatching(/SQLite page cache: 3 MiB for the collector$/)
    ])
  })

  it('is the default on both connections when none is asked for', async () => {
    const captured = capturedLog()
    running = await startTestServer({ log: captured.log })
    expect(sqliteOf(running.store).pragma('cache_size', { simple: true })).toBe(-DEFAULT_PAGE_CACHE_MIB * 1024)
    await running.collect(heartbeat())
    expect(cacheLines(captured.out())).toEqual([
      expect.stringMatching(`SQLite page cache: ${DEFAULT_PAGE_CACHE_MIB} MiB for the HTTP thread$`),
      expect.stringMatching(`SQLite page cache: ${DEFAULT_PAGE_CACHE_MIB} MiB for the collector$`)
    ])
  })

  it('is taken from --cache-size by the built server', async () => {
    built = await startBuiltServer({ args: ['--cache-size', '5', '--init-collector', 'monit:abc123'] })
    expect((await postCollector(built.baseUrl, heartbeat(), { auth: 'monit:abc123' })).status).toBe(200)
    await expect
      .poll(() => cacheLines(built!.output().split('\n')))
      .toEqual([
        expect.stringMatching(/SQLite page cache: 5 MiB for the HTTP thread$/),
        expect.stringMatching(/SQLite page cache: 5 MiB for the collector$/)
      ])
  })
})
